import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases, storageDatabases } from '../../../../test/support/testDatabases.ts';
import { identityClient, protocolError, uniqueEmail } from '../../../../test/support/identityTestClient.ts';

function codeFrom(text: string): string {
  const match = /\/reset-password\?oobCode=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no reset link in: ${text}`);
  return match[1]!;
}

const SITE = 'Margit’s Kitchen';

describe.each(contractDatabases())('password reset by email on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;
  let clockOffset = 0;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(
      dialectCase,
      {
        SMTP_URL: sink.url,
        PUBLIC_URL: 'https://blog.example',
        MAIL_FROM: 'Margit <no-reply@blog.example>',
        SITE_TITLE: SITE,
      },
      { clock: () => Date.now() + clockOffset },
    );
    client = identityClient(server.url);
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  const sendReset = (email: string) =>
    client.call('/v1/accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email });

  it('emails a single-use link, checks the code, applies it and ends every session', async () => {
    const email = uniqueEmail();
    const signUp = await client.signUp(email, 'old-secret');
    const before = sink.messages.length;
    const sent = await sendReset(` ${email.toUpperCase()}`);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email });

    const mail = await sink.waitForMail(email, { after: before, subject: /Reset your/ });
    // The site's name (SITE_TITLE), never the product's.
    expect(mail.subject).toBe(`Reset your ${SITE} password`);
    expect(mail.text).toContain(`the password of the ${SITE} account`);
    expect(mail.text + mail.html).not.toContain('Inkwell');
    expect(mail.from).toContain('no-reply@blog.example');
    expect(mail.text).toContain('https://blog.example/reset-password?oobCode=');
    expect(mail.html).toContain('https://blog.example/reset-password?oobCode=');
    const code = codeFrom(mail.text);
    expect(code.length).toBeGreaterThanOrEqual(22); // >= 128 bits of base64url

    // Only a hash of the code is stored.
    const rows = await server.database.db.selectFrom('identity_oob_codes').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(code);

    const check = await client.call('/v1/accounts:resetPassword', { oobCode: code });
    expect(check.body).toEqual({ kind: 'identitytoolkit#ResetPasswordResponse', email, requestType: 'PASSWORD_RESET' });
    const weak = await client.call('/v1/accounts:resetPassword', { oobCode: code, newPassword: '1' });
    expect(weak.body).toEqual(protocolError('WEAK_PASSWORD : Password should be at least 6 characters'));
    const blank = await client.call('/v1/accounts:resetPassword', { oobCode: code, newPassword: '          ' });
    expect(blank.body).toEqual(protocolError('WEAK_PASSWORD : Password cannot be only spaces'));

    const applied = await client.call('/v1/accounts:resetPassword', { oobCode: code, newPassword: 'new-secret' });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ email, requestType: 'PASSWORD_RESET' });

    expect((await client.signIn(email, 'old-secret')).body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
    expect((await client.signIn(email, 'new-secret')).status).toBe(200);
    expect((await client.refresh(signUp.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await client.lookup(signUp.body.idToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));

    // Single use.
    const again = await client.call('/v1/accounts:resetPassword', { oobCode: code, newPassword: 'third-secret' });
    expect(again.body).toEqual(protocolError('INVALID_OOB_CODE'));
  });

  it('invalidates an older code when a newer one is sent, and expires codes after an hour', async () => {
    const email = uniqueEmail();
    await client.signUp(email, 'old-secret');
    let before = sink.messages.length;
    await sendReset(email);
    const older = codeFrom((await sink.waitForMail(email, { after: before, subject: /Reset your/ })).text);
    before = sink.messages.length;
    await sendReset(email);
    const newer = codeFrom((await sink.waitForMail(email, { after: before, subject: /Reset your/ })).text);
    expect(newer).not.toBe(older);
    expect((await client.call('/v1/accounts:resetPassword', { oobCode: older })).body).toEqual(
      protocolError('INVALID_OOB_CODE'),
    );
    clockOffset = 61 * 60 * 1000;
    try {
      expect(
        (await client.call('/v1/accounts:resetPassword', { oobCode: newer, newPassword: 'new-secret' })).body,
      ).toEqual(protocolError('EXPIRED_OOB_CODE'));
    } finally {
      clockOffset = 0;
    }
    expect((await client.call('/v1/accounts:resetPassword', { oobCode: 'made-up' })).body).toEqual(
      protocolError('INVALID_OOB_CODE'),
    );
    expect((await client.call('/v1/accounts:resetPassword', {})).body).toEqual(protocolError('MISSING_OOB_CODE'));
  });

  it('answers an unknown email exactly like a known one, and sends nothing', async () => {
    const known = uniqueEmail();
    await client.signUp(known, 'old-secret');
    const before = sink.messages.length;
    const unknown = uniqueEmail('nobody');
    const knownAnswer = await sendReset(known);
    const unknownAnswer = await sendReset(unknown);
    expect(unknownAnswer.status).toBe(knownAnswer.status);
    expect(unknownAnswer.text).toBe(knownAnswer.text.replace(known, unknown));
    await sink.waitForMail(known, { after: before, subject: /Reset your/ });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.slice(before).some((mail) => mail.to.includes(unknown))).toBe(false);
  });

  it('sends a notice to the old address when the email changes', async () => {
    const email = uniqueEmail();
    const signUp = await client.signUp(email, 'old-secret');
    let before = sink.messages.length;
    await sendReset(email);
    const code = codeFrom((await sink.waitForMail(email, { after: before, subject: /Reset your/ })).text);
    before = sink.messages.length;
    const fresh = uniqueEmail('new');
    expect((await client.update({ idToken: signUp.body.idToken, email: fresh })).status).toBe(200);
    const notice = await sink.waitForMail(email, { after: before, subject: /was changed/ });
    expect(notice.subject).toBe(`Your ${SITE} email address was changed`);
    expect(notice.text).toContain(`The email address of your ${SITE} account was changed`);
    expect(notice.text).toContain(fresh);
    expect(notice.html).toContain(fresh);
    // A code sent to the old address stops working after the change.
    expect((await client.call('/v1/accounts:resetPassword', { oobCode: code })).body).toEqual(
      protocolError('INVALID_OOB_CODE'),
    );
  });
});

describe('password reset with a failing mail server', () => {
  // Each case waits out the 10 s mail timeout twice, one request after the other (the unknown
  // email's answer imitates the known one's); the databases wait at the same time.
  it.concurrent.for(storageDatabases())(
    'on $dialect fails with a JSON error within 10 s, for known and (afterwards) unknown emails alike',
    { timeout: 40_000 },
    async (dialectCase, { expect }) => {
      const sink = await startSmtpSink({ mode: 'hang' });
      const server = await startTestApp(dialectCase, { SMTP_URL: sink.url });
      try {
        const client = identityClient(server.url);
        const email = uniqueEmail();
        await client.signUp(email, 'old-secret');
        const started = Date.now();
        const known = await client.call('/v1/accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email });
        expect(Date.now() - started).toBeLessThan(12_000);
        expect(known.status).toBe(503);
        expect(known.body).toEqual(
          protocolError('EMAIL_DELIVERY_FAILED : The email could not be sent. Try again later.', 503),
        );
        // While deliveries fail, an unknown email gets the same answer, so the failure reveals nothing.
        const unknown = await client.call('/v1/accounts:sendOobCode', {
          requestType: 'PASSWORD_RESET',
          email: uniqueEmail('nobody'),
        });
        expect(unknown.status).toBe(503);
        expect(unknown.body).toEqual(known.body);
      } finally {
        await server.close();
        await sink.close();
      }
    },
  );
});
