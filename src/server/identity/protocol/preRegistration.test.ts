import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi } from '../../../../test/support/articlesTestClient.ts';
import { identityClient, protocolError, uniqueEmail } from '../../../../test/support/identityTestClient.ts';
import { startSmtpSink, type SmtpSink } from '../../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../../../../test/support/testOidcProvider.ts';
import { totpCode } from '../../../../test/support/twoStepTestSupport.ts';
import { markAddressVerified } from '../../../../test/support/verifiedAccounts.ts';
import { softAuthenticator, type SoftPasskey } from '../../passkeys/testAuthenticator.ts';

const PUBLIC_URL = 'http://localhost:3999';
const PROVIDER = 'oidc.test';

/**
 * Whose account it is (DESIGN §9.1, decision 0551): someone who signs up first with another
 * person's address keeps no way in once that person acts, and never a role bound to the address.
 * Each scenario runs through the real HTTP interfaces against a real SMTP sink and OpenID provider.
 */
describe.each(contractDatabases())('pre-registered accounts on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let provider: TestOidcProvider;
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;
  let offset = 0;
  const now = () => Date.now() + offset;
  const OWNER = 'the.owner@example.com';
  const authenticator = softAuthenticator(PUBLIC_URL);

  beforeAll(async () => {
    sink = await startSmtpSink();
    provider = await startTestOidcProvider({ redirectUris: [] });
    server = await startTestApp(
      dialectCase,
      { SMTP_URL: sink.url, PUBLIC_URL, OWNER_EMAIL: OWNER, RECENT_SIGN_IN_SECONDS: '300', ...provider.env('TEST') },
      { clock: now },
    );
    client = identityClient(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
    await sink?.close();
  });

  const mailTo = async (email: string, subject: RegExp, after: number) =>
    (await sink.waitForMail(email, { after, subject })).text;
  const codeIn = (text: string, pattern: RegExp) => {
    const match = pattern.exec(text);
    if (!match) throw new Error(`no link in: ${text}`);
    return match[1]!;
  };
  const verifyCodeIn = (text: string) => codeIn(text, /mode=verifyEmail&oobCode=([A-Za-z0-9_-]+)/);
  const resetCodeIn = (text: string) => codeIn(text, /reset-password\?oobCode=([A-Za-z0-9_-]+)/);
  const roleOf = async (idToken: string) => decodeJwt(idToken).role;
  const refreshed = async (refreshToken: string) => client.refresh(refreshToken);

  /** Signs up and answers the tokens with the verification code the sign-up mailed. */
  async function signUpAndMail(email: string, password: string, extra: Record<string, unknown> = {}) {
    const before = sink.messages.length;
    const signedUp = await client.signUp(email, password, extra);
    expect(signedUp.status).toBe(200);
    const verifyCode = verifyCodeIn(await mailTo(email, /^Verify/, before));
    return { ...(signedUp.body as { localId: string; idToken: string; refreshToken: string }), verifyCode };
  }

  /** The mailbox holder's password reset: asks for the link and sets a password through it. */
  async function resetFromMailbox(email: string, newPassword: string) {
    const before = sink.messages.length;
    const asked = await client.call('/v1/accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email });
    expect(asked.status).toBe(200);
    const code = resetCodeIn(await mailTo(email, /password/i, before));
    const reset = await client.call('/v1/accounts:resetPassword', { oobCode: code, newPassword });
    expect(reset.status).toBe(200);
  }

  const signInWithIdp = (providerToken: string, idToken?: string) =>
    client.call('/v1/accounts:signInWithIdp', {
      requestUri: 'http://localhost',
      postBody: new URLSearchParams({ id_token: providerToken, providerId: PROVIDER }).toString(),
      returnSecureToken: true,
      ...(idToken !== undefined ? { idToken } : {}),
    });

  async function addPasskey(idToken: string): Promise<SoftPasskey> {
    const started = await client.call('/v1/passkeys:startRegistration', { idToken });
    expect(started.status).toBe(200);
    const { response, passkey } = authenticator.register(started.body.options);
    expect((await client.call('/v1/passkeys:finishRegistration', { idToken, credential: response })).status).toBe(200);
    return passkey;
  }
  async function signInWithPasskey(passkey: SoftPasskey) {
    const started = await client.call('/v1/passkeys:startSignIn', {});
    return client.call('/v1/passkeys:finishSignIn', {
      credential: authenticator.signIn(started.body.options, passkey),
    });
  }

  it('OWNER_EMAIL: whoever registered the address first never becomes owner, and the owner’s reset shuts them out', async () => {
    const attacker = await signUpAndMail(OWNER, 'attackers own password');
    expect(await roleOf(attacker.idToken)).not.toBe('owner');
    // Nothing can be added to an unverified address.
    expect((await client.call('/v1/passkeys:startRegistration', { idToken: attacker.idToken })).body).toEqual(
      protocolError('UNVERIFIED_EMAIL'),
    );
    const attackersIdentity = { sub: randomUUID(), email: uniqueEmail('attacker-idp'), email_verified: true };
    expect((await signInWithIdp(await provider.idToken(attackersIdentity), attacker.idToken)).body).toEqual(
      protocolError('UNVERIFIED_EMAIL'),
    );

    // The real owner opens the verification mail (a mail app: no session): verified, no role.
    const opened = await client.call('/v1/accounts:update', { oobCode: attacker.verifyCode });
    expect(opened.status).toBe(200);
    expect(opened.body.emailVerified).toBe(true);
    const afterVerification = await refreshed(attacker.refreshToken);
    expect(afterVerification.status).toBe(200);
    expect(await roleOf(afterVerification.body.id_token)).toBe('author');
    expect(
      (await articlesApi(server.url).request('GET', '/members', { token: afterVerification.body.id_token })).status,
    ).toBe(403);

    // Now verified, the attacker adds every way in they can.
    const passkey = await addPasskey(afterVerification.body.id_token);
    const linked = await signInWithIdp(await provider.idToken(attackersIdentity), afterVerification.body.id_token);
    expect(linked.status).toBe(200);

    // The owner resets the password from the mailbox: the address is claimed, the role granted,
    // and every way in the attacker made is gone.
    await resetFromMailbox(OWNER, 'the owners new password');
    expect((await refreshed(attacker.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await refreshed(linked.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await client.signIn(OWNER, 'attackers own password')).body).toEqual(
      protocolError('INVALID_LOGIN_CREDENTIALS'),
    );
    expect((await signInWithPasskey(passkey)).status).toBe(400);
    const viaProvider = await signInWithIdp(await provider.idToken(attackersIdentity));
    expect(viaProvider.body.localId).not.toBe(attacker.localId);

    const owner = await client.signIn(OWNER, 'the owners new password');
    expect(owner.body.localId).toBe(attacker.localId);
    expect(await roleOf(owner.body.idToken)).toBe('owner');
    const lookup = await client.lookup(owner.body.idToken);
    expect(lookup.body.users[0].providerUserInfo.map((info: { providerId: string }) => info.providerId)).toEqual([
      'password',
    ]);
    expect((await client.call('/v1/passkeys:list', { idToken: owner.body.idToken })).body.passkeys).toEqual([]);
  });

  it('a change link to the owner’s address opened by its owner makes the changer no owner', async () => {
    // On a server whose owner address nobody holds yet.
    const address = uniqueEmail('future-owner');
    const other = await startTestApp(dialectCase, { SMTP_URL: sink.url, PUBLIC_URL, OWNER_EMAIL: address });
    try {
      const otherClient = identityClient(other.url);
      const changer = await otherClient.signUp(uniqueEmail('changer'), 'changers password');
      const before = sink.messages.length;
      const asked = await otherClient.call('/v1/accounts:sendOobCode', {
        requestType: 'VERIFY_AND_CHANGE_EMAIL',
        idToken: changer.body.idToken,
        newEmail: address,
      });
      expect(asked.status).toBe(200);
      const code = verifyCodeIn(
        (await mailTo(address, /./, before)).replace('mode=verifyAndChangeEmail', 'mode=verifyEmail'),
      );
      expect((await otherClient.call('/v1/accounts:update', { oobCode: code })).body.email).toBe(address);
      const signedIn = await otherClient.signIn(address, 'changers password');
      expect(await roleOf(signedIn.body.idToken)).toBe('author');
    } finally {
      await other.close();
    }
  });

  it('the real owner becomes owner in two steps: sign up, then the link opened where they signed up', async () => {
    const address = uniqueEmail('owner-to-be');
    const other = await startTestApp(
      dialectCase,
      { SMTP_URL: sink.url, PUBLIC_URL, OWNER_EMAIL: address },
      { clock: now },
    );
    try {
      const otherClient = identityClient(other.url);
      const before = sink.messages.length;
      const signedUp = await otherClient.signUp(address, 'owners password');
      const code = verifyCodeIn(await mailTo(address, /^Verify/, before));
      // A session that began after the link was sent (a login forced on this browser) claims nothing.
      offset += 2000;
      const later = await otherClient.signIn(address, 'owners password');
      const byLater = await otherClient.call('/v1/accounts:update', { oobCode: code, idToken: later.body.idToken });
      expect(byLater.body.emailVerified).toBe(true);
      expect(await roleOf((await otherClient.refresh(later.body.refreshToken)).body.id_token)).toBe('author');
      // The sign-up's own session, with the same link: owner.
      const claimed = await otherClient.call('/v1/accounts:update', { oobCode: code, idToken: signedUp.body.idToken });
      expect(claimed.status).toBe(200);
      expect(await roleOf((await otherClient.refresh(signedUp.body.refreshToken)).body.id_token)).toBe('owner');
    } finally {
      offset = 0;
      await other.close();
    }
  });

  it('an invitation sent to an address gives its role only to whoever claims the address; the check names no address', async () => {
    const owner = await ownerOf(server);
    const invited = uniqueEmail('invited');
    const made = await articlesApi(server.url).request('POST', '/invitations', {
      token: owner,
      json: { role: 'editor', email: invited },
    });
    expect(made.status).toBe(201);
    const code = new URL(made.body.url).searchParams.get('invite')!;
    const check = await articlesApi(server.url).request('POST', '/invitations/check', { json: { code } });
    expect(check.body).toEqual({ valid: true, role: 'editor', forAddress: true, expiresAt: made.body.expiresAt });
    expect(JSON.stringify(check.body)).not.toContain(invited);

    // Someone holding the link signs up with the address: a reader, and still one after the
    // invitee opens the verification mail.
    const squatter = await signUpAndMail(invited, 'squatters password', { inviteCode: code });
    expect(await roleOf(squatter.idToken)).toBe('reader');
    await client.call('/v1/accounts:update', { oobCode: squatter.verifyCode });
    expect(await roleOf((await refreshed(squatter.refreshToken)).body.id_token)).toBe('reader');
    // Moving the account to another address and claiming that one brings no role either.
    const elsewhere = uniqueEmail('elsewhere');
    const before = sink.messages.length;
    const moved = await client.update({ idToken: squatter.idToken, email: elsewhere, returnSecureToken: true });
    expect(moved.status).toBe(200);
    const movedCode = verifyCodeIn(await mailTo(elsewhere, /^Verify/, before));
    await client.call('/v1/accounts:update', { oobCode: movedCode, idToken: moved.body.idToken });
    expect(await roleOf((await refreshed(moved.body.refreshToken)).body.id_token)).toBe('reader');

    // The invitee of a second invitation signs up and opens the link where they signed up: editor.
    const invitee = uniqueEmail('invitee');
    const second = await articlesApi(server.url).request('POST', '/invitations', {
      token: owner,
      json: { role: 'editor', email: invitee },
    });
    const joined = await signUpAndMail(invitee, 'invitees password', {
      inviteCode: new URL(second.body.url).searchParams.get('invite')!,
    });
    expect(await roleOf(joined.idToken)).toBe('reader');
    expect(
      (await client.call('/v1/accounts:update', { oobCode: joined.verifyCode, idToken: joined.idToken })).status,
    ).toBe(200);
    expect(await roleOf((await refreshed(joined.refreshToken)).body.id_token)).toBe('editor');
  });

  it('a provider takeover of an account that needs a second step writes nothing', async () => {
    // An account with two-step on, whose address then changed to one it has not verified.
    const first = await signUpAndMail(uniqueEmail('two-step'), 'two step password');
    await markAddressVerified(server, first.localId);
    const started = await client.call('/v2/accounts/mfaEnrollment:start', {
      idToken: first.idToken,
      totpEnrollmentInfo: {},
    });
    const { sharedSecretKey, sessionInfo } = started.body.totpSessionInfo;
    const enrolled = await client.call('/v2/accounts/mfaEnrollment:finalize', {
      idToken: first.idToken,
      totpVerificationInfo: { sessionInfo, verificationCode: totpCode(sharedSecretKey, now()) },
    });
    expect(enrolled.status).toBe(200);
    const unverified = uniqueEmail('unverified');
    const changed = await client.update({ idToken: enrolled.body.idToken, email: unverified, returnSecureToken: true });
    expect(changed.status).toBe(200);

    // A provider vouches for the new address: no takeover without the second step, and nothing changed.
    const answer = await signInWithIdp(
      await provider.idToken({ sub: randomUUID(), email: unverified, email_verified: true }),
    );
    expect(answer.body).toMatchObject({ needConfirmation: true, email: unverified });
    expect(answer.body.idToken).toBeUndefined();
    const password = await client.signIn(unverified, 'two step password');
    expect(password.body.mfaPendingCredential).toEqual(expect.any(String));
    expect((await refreshed(changed.body.refreshToken)).status).toBe(200);
    const lookup = await client.lookup(changed.body.idToken);
    expect(lookup.body.users[0].emailVerified).toBe(false);
    expect(lookup.body.users[0].providerUserInfo.map((info: { providerId: string }) => info.providerId)).toEqual([
      'password',
    ]);
  });

  /** An owner's ID token: the owner address, claimed once through a reset if the first test left it so. */
  async function ownerOf(app: TestApp): Promise<string> {
    const appClient = identityClient(app.url);
    let signedIn = await appClient.signIn(OWNER, 'the owners new password');
    if (signedIn.status !== 200) {
      const made = await signUpAndMail(OWNER, 'the owners new password');
      await appClient.call('/v1/accounts:update', { oobCode: made.verifyCode, idToken: made.idToken });
      signedIn = await appClient.signIn(OWNER, 'the owners new password');
    }
    expect(await roleOf(signedIn.body.idToken)).toBe('owner');
    return signedIn.body.idToken as string;
  }
});
