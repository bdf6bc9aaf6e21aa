import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { identityClient, protocolError, uniqueEmail } from '../../../../test/support/identityTestClient.ts';

const tooMany = protocolError('TOO_MANY_ATTEMPTS_TRY_LATER', 429);

/** The security review's findings 2, 3, 5 and 6 (issue 14 §4), each as the reviewer reproduced it. */
describe.each(contractDatabases())('review findings on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, {
      SMTP_URL: sink.url,
      // Client addresses come from X-Forwarded-For, so one test can speak from several.
      TRUST_PROXY: 'true',
      RATE_LIMIT_SIGNIN_PER_EMAIL: '3',
      RATE_LIMIT_SIGNIN_PER_ACCOUNT: '6',
      RATE_LIMIT_SIGNIN_PER_IP: '1000',
      RATE_LIMIT_SIGNIN_ATTEMPTS_PER_IP: '4',
      RATE_LIMIT_SIGNUP_PER_IP: '1000',
      RATE_LIMIT_EMAIL_CHANGE_PER_USER: '3',
      RATE_LIMIT_NEW_PASSWORD_PER_USER: '2',
    });
    client = identityClient(server.url);
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  let nextAddress = 1;
  const newAddress = () => `203.0.113.${nextAddress++}`;
  const signInFrom = (address: string, email: string, password: string) =>
    client.call(
      '/v1/accounts:signInWithPassword',
      { email, password, returnSecureToken: true },
      { headers: { 'x-forwarded-for': address } },
    );

  it('2: email and password changes are limited per account, EMAIL_EXISTS answers included', async () => {
    const taken = uniqueEmail('taken');
    await client.signUp(taken, 'secret-1');
    const email = uniqueEmail();
    let idToken = (await client.signUp(email, 'secret-1')).body.idToken as string;
    const probes = [];
    for (let i = 0; i < 3; i++) probes.push((await client.update({ idToken, email: taken })).body);
    expect(probes).toEqual(Array.from({ length: 3 }, () => protocolError('EMAIL_EXISTS')));
    // The allowance is used up: neither another probe nor a real change goes through.
    expect((await client.update({ idToken, email: taken })).body).toEqual(tooMany);
    const blocked = await client.update({ idToken, email: uniqueEmail('free') });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await client.lookup(idToken)).body.users[0].email).toBe(email);

    for (let i = 0; i < 2; i++) {
      const changed = await client.update({ idToken, password: `new-secret-${i}`, returnSecureToken: true });
      expect(changed.status).toBe(200);
      idToken = changed.body.idToken as string;
    }
    expect((await client.update({ idToken, password: 'new-secret-9', returnSecureToken: true })).body).toEqual(tooMany);
    expect((await client.signIn(email, 'new-secret-1')).status).toBe(200);
  });

  it("5: one address's failures do not lock the owner out elsewhere; guessing from many addresses is throttled", async () => {
    const email = uniqueEmail();
    await client.signUp(email, 'secret-1');
    const attacker = newAddress();
    for (let i = 0; i < 3; i++) {
      expect((await signInFrom(attacker, email, `guess-${i}`)).body).toEqual(
        protocolError('INVALID_LOGIN_CREDENTIALS'),
      );
    }
    expect((await signInFrom(attacker, email, 'guess-4')).body).toEqual(tooMany);
    // The owner, from home, is let in.
    expect((await signInFrom(newAddress(), email, 'secret-1')).status).toBe(200);

    // Guesses spread over addresses, one or two each, reach the account's own limit (6).
    const victim = uniqueEmail('victim');
    await client.signUp(victim, 'secret-1');
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await signInFrom(newAddress(), victim, `guess-${i}`)).status);
    expect(answers).toEqual([400, 400, 400, 400, 400, 400]);
    expect((await signInFrom(newAddress(), victim, 'guess-7')).body).toEqual(tooMany);
  });

  it('6: successful sign-ins count toward a per-address limit, so the hashing one client causes is bounded', async () => {
    const email = uniqueEmail();
    await client.signUp(email, 'secret-1');
    const address = newAddress();
    for (let i = 0; i < 4; i++) expect((await signInFrom(address, email, 'secret-1')).status).toBe(200);
    expect((await signInFrom(address, email, 'secret-1')).body).toEqual(tooMany);
    expect((await signInFrom(newAddress(), email, 'secret-1')).status).toBe(200);
  });
});

describe.each(contractDatabases())('action codes die with a credential change on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, { SMTP_URL: sink.url });
    client = identityClient(server.url);
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  async function resetCodeFor(email: string): Promise<string> {
    const before = sink.messages.length;
    await client.call('/v1/accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email });
    const mail = await sink.waitForMail(email, { after: before, subject: /Reset your/ });
    return /oobCode=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  }
  const check = (oobCode: string) => client.call('/v1/accounts:resetPassword', { oobCode });

  it('3: a reset code dies when the password changes', async () => {
    const email = uniqueEmail();
    const { idToken } = (await client.signUp(email, 'secret-1')).body as { idToken: string };
    const code = await resetCodeFor(email);
    expect((await check(code)).status).toBe(200);
    expect((await client.update({ idToken, password: 'secret-2', returnSecureToken: true })).status).toBe(200);
    expect((await check(code)).body).toEqual(protocolError('INVALID_OOB_CODE'));
    const applied = await client.call('/v1/accounts:resetPassword', { oobCode: code, newPassword: 'secret-3' });
    expect(applied.body).toEqual(protocolError('INVALID_OOB_CODE'));
    expect((await client.signIn(email, 'secret-2')).status).toBe(200);
  });

  it('3: changing the email away and back does not revive a reset code', async () => {
    const email = uniqueEmail();
    let { idToken } = (await client.signUp(email, 'secret-1')).body as { idToken: string };
    const code = await resetCodeFor(email);
    const away = await client.update({ idToken, email: uniqueEmail('away'), returnSecureToken: true });
    idToken = away.body.idToken as string;
    const back = await client.update({ idToken, email, returnSecureToken: true });
    expect(back.status).toBe(200);
    expect((await check(code)).body).toEqual(protocolError('INVALID_OOB_CODE'));
  });
});
