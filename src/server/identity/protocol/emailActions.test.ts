import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { identityClient, protocolError, uniqueEmail } from '../../../../test/support/identityTestClient.ts';

function actionCode(text: string, mode: string): string {
  const match = new RegExp(`https://blog\\.example/action\\?mode=${mode}&oobCode=([A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no ${mode} link in: ${text}`);
  return match[1]!;
}

describe.each(contractDatabases())(
  'email actions (docs/architecture.md, Sign-in protocol) on $dialect',
  (dialectCase) => {
    let sink: SmtpSink;
    let server: TestApp;
    let client: ReturnType<typeof identityClient>;

    beforeAll(async () => {
      sink = await startSmtpSink();
      server = await startTestApp(dialectCase, {
        SMTP_URL: sink.url,
        PUBLIC_URL: 'https://blog.example',
        SITE_TITLE: 'Notes & Co',
      });
      client = identityClient(server.url);
    });
    afterAll(async () => {
      await server.close();
      await sink.close();
    });

    const apply = (oobCode: string) => client.call('/v1/accounts:update', { oobCode });
    const check = (oobCode: string) => client.call('/v1/accounts:resetPassword', { oobCode });
    const verified = async (idToken: string) => (await client.lookup(idToken)).body.users[0].emailVerified as boolean;

    it('mails a verification link on sign-up and on request; applying it verifies the address once', async () => {
      const email = uniqueEmail();
      const before = sink.messages.length;
      const { idToken } = (await client.signUp(email, 'secret-1')).body as { idToken: string };
      const first = await sink.waitForMail(email, { after: before, subject: /^Verify your Notes & Co email address$/ });
      expect(first.text).toContain('the email address of your Notes & Co account');
      expect(first.html).toContain('your Notes &amp; Co account');
      const firstCode = actionCode(first.text, 'verifyEmail');
      expect(first.html).toContain(`https://blog.example/action?mode=verifyEmail&amp;oobCode=${firstCode}`);

      const again = sink.messages.length;
      const asked = await client.call('/v1/accounts:sendOobCode', { requestType: 'VERIFY_EMAIL', idToken });
      expect(asked.body).toEqual({ kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email });
      const code = actionCode((await sink.waitForMail(email, { after: again, subject: /Verify/ })).text, 'verifyEmail');
      // Only hashes are stored; the newer link replaces the older one.
      const rows = await server.database.db.selectFrom('identity_oob_codes').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(code);
      expect((await check(firstCode)).body).toEqual(protocolError('INVALID_OOB_CODE'));

      expect((await check(code)).body).toEqual({
        kind: 'identitytoolkit#ResetPasswordResponse',
        requestType: 'VERIFY_EMAIL',
        email,
      });
      // A verification code sets no password.
      expect(
        (await client.call('/v1/accounts:resetPassword', { oobCode: code, newPassword: 'x-secret-9' })).body,
      ).toEqual(protocolError('INVALID_OOB_CODE'));
      expect(await verified(idToken)).toBe(false);
      const applied = await apply(code);
      expect(applied.status).toBe(200);
      expect(applied.body).toMatchObject({
        kind: 'identitytoolkit#SetAccountInfoResponse',
        email,
        emailVerified: true,
      });
      expect(await verified(idToken)).toBe(true);
      expect((await apply('not-a-code')).body).toEqual(protocolError('INVALID_OOB_CODE'));
    });

    it('a verification link opened again, once the address is verified, answers that it is verified (issue 26.9)', async () => {
      const email = uniqueEmail();
      const before = sink.messages.length;
      const { idToken } = (await client.signUp(email, 'secret-1')).body as { idToken: string };
      const code = actionCode(
        (await sink.waitForMail(email, { after: before, subject: /Verify/ })).text,
        'verifyEmail',
      );
      expect((await apply(code)).body).toMatchObject({ email, emailVerified: true });
      const row = await server.database.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirst();

      // A mail app's link preview used it first, or it is opened on a second device: the same answer.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const again = await apply(code);
        expect(again.status).toBe(200);
        expect(again.body).toMatchObject({
          kind: 'identitytoolkit#SetAccountInfoResponse',
          email,
          emailVerified: true,
        });
      }
      // Nothing was written by the repeats, and the sessions live on.
      expect(
        await server.database.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst(),
      ).toEqual(row);
      expect(await verified(idToken)).toBe(true);
      // A code of another kind, used, stays refused.
      const resetBefore = sink.messages.length;
      await client.call('/v1/accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email });
      const resetMail = await sink.waitForMail(email, { after: resetBefore, subject: /password/i });
      const reset = /reset-password\?oobCode=([A-Za-z0-9_-]+)/.exec(resetMail.text)![1]!;
      expect(
        (await client.call('/v1/accounts:resetPassword', { oobCode: reset, newPassword: 'new-secret-2' })).status,
      ).toBe(200);
      expect((await apply(reset)).body).toEqual(protocolError('INVALID_OOB_CODE'));
    });

    it('a direct change marks the account unverified, verifies the new address, and lets the old one undo it', async () => {
      const email = uniqueEmail();
      const owner = (await client.signUp(email, 'secret-1')).body as { idToken: string; refreshToken: string };
      const before = sink.messages.length;
      const fresh = uniqueEmail('hijacker');
      const changed = await client.update({ idToken: owner.idToken, email: fresh, returnSecureToken: true });
      expect(changed.body).toMatchObject({ email: fresh, emailVerified: false });
      const changer = changed.body as { idToken: string; refreshToken: string };
      // The hijacker goes on to change the password, too.
      const repassworded = await client.update({
        idToken: changer.idToken,
        password: 'hijacked-1',
        returnSecureToken: true,
      });
      expect(repassworded.status).toBe(200);

      const verify = await sink.waitForMail(fresh, {
        after: before,
        subject: /^Verify your Notes & Co email address$/,
      });
      expect(actionCode(verify.text, 'verifyEmail')).toBeTruthy();
      const notice = await sink.waitForMail(email, {
        after: before,
        subject: /^Your Notes & Co email address was changed$/,
      });
      expect(notice.text).toContain(fresh);
      expect(notice.text).not.toContain('new address if you can');
      const recover = actionCode(notice.text, 'recoverEmail');
      expect((await check(recover)).body).toEqual({
        kind: 'identitytoolkit#ResetPasswordResponse',
        requestType: 'RECOVER_EMAIL',
        email,
        newEmail: fresh,
      });

      const restored = await apply(recover);
      expect(restored.body).toMatchObject({ email, emailVerified: true });
      // Every session ended, the hijacker's included.
      const latest = repassworded.body as { idToken: string; refreshToken: string };
      expect((await client.lookup(latest.idToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
      expect((await client.refresh(latest.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
      expect((await client.refresh(owner.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
      expect((await client.signIn(fresh, 'hijacked-1')).body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
      expect((await client.signIn(email, 'hijacked-1')).status).toBe(200);
      expect((await apply(recover)).body).toEqual(protocolError('INVALID_OOB_CODE'));
    });

    it('a verification link dies when its address is no longer the account’s', async () => {
      const email = uniqueEmail();
      const { idToken } = (await client.signUp(email, 'secret-1')).body as { idToken: string };
      const before = sink.messages.length;
      await client.call('/v1/accounts:sendOobCode', { requestType: 'VERIFY_EMAIL', idToken });
      const code = actionCode(
        (await sink.waitForMail(email, { after: before, subject: /Verify/ })).text,
        'verifyEmail',
      );
      const moved = await client.update({ idToken, email: uniqueEmail('moved'), returnSecureToken: true });
      expect(moved.status).toBe(200);
      expect((await apply(code)).body).toEqual(protocolError('INVALID_OOB_CODE'));
      expect(await verified(moved.body.idToken as string)).toBe(false);
    });

    it('verify-before-change refuses a taken address and changes nothing until applied', async () => {
      const taken = uniqueEmail('taken');
      await client.signUp(taken, 'secret-1');
      const email = uniqueEmail();
      const { idToken } = (await client.signUp(email, 'secret-1')).body as { idToken: string };
      const send = (newEmail: unknown) =>
        client.call('/v1/accounts:sendOobCode', { requestType: 'VERIFY_AND_CHANGE_EMAIL', idToken, newEmail });
      expect((await send(taken)).body).toEqual(protocolError('EMAIL_EXISTS'));
      expect((await send('not an address')).body).toEqual(protocolError('INVALID_EMAIL'));
      expect((await client.call('/v1/accounts:sendOobCode', { requestType: 'NOPE', idToken })).body).toEqual(
        protocolError('INVALID_REQ_TYPE'),
      );
      const next = uniqueEmail('next');
      const before = sink.messages.length;
      expect((await send(next)).body).toEqual({ kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email });
      const code = actionCode(
        (await sink.waitForMail(next, { after: before, subject: /Confirm your new/ })).text,
        'verifyAndChangeEmail',
      );
      expect((await client.lookup(idToken)).body.users[0].email).toBe(email);
      expect((await check(code)).body).toMatchObject({ requestType: 'VERIFY_AND_CHANGE_EMAIL', email, newEmail: next });
      expect((await apply(code)).body).toMatchObject({ email: next, emailVerified: true });
      expect((await client.lookup(idToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
      expect((await client.signIn(next, 'secret-1')).status).toBe(200);
    });
  },
);
