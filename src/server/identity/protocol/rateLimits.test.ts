import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases, storageDatabases } from '../../../../test/support/testDatabases.ts';
import { identityClient, protocolError, uniqueEmail } from '../../../../test/support/identityTestClient.ts';

const tooMany = protocolError('TOO_MANY_ATTEMPTS_TRY_LATER', 429);

describe.each(contractDatabases())('rate limits on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, {
      SMTP_URL: sink.url,
      RATE_LIMIT_SIGNIN_PER_EMAIL: '3',
      RATE_LIMIT_SIGNIN_PER_IP: '6',
      RATE_LIMIT_SIGNUP_PER_IP: '4',
      RATE_LIMIT_RESET_EMAIL_PER_EMAIL: '2',
      RATE_LIMIT_RESET_EMAIL_PER_IP: '4',
      RATE_LIMIT_RESET_CODE_PER_IP: '3',
    });
    client = identityClient(server.url);
  });
  afterAll(async () => {
    await server.close();
    await sink.close();
  });

  it('limits failed sign-ins per email, even with the right password, then per IP', async () => {
    const email = uniqueEmail();
    await client.signUp(email, 'secret-1');
    for (let i = 0; i < 3; i++) {
      expect((await client.signIn(email, 'wrong-password')).body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
    }
    const blocked = await client.signIn(email, 'secret-1');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(tooMany);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);

    // Three more failures on other emails reach the per-IP limit of 6.
    for (let i = 0; i < 3; i++) await client.signIn(uniqueEmail('guess'), 'wrong-password');
    expect((await client.signIn(uniqueEmail('guess'), 'wrong-password')).status).toBe(429);
  });

  it('limits sign-ups per IP', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await client.signUp(uniqueEmail(), 'x')).status);
    // The first sign-up of the file happened in the previous test: weak passwords are refused before counting.
    expect(answers).toEqual([400, 400, 400, 400]);
    for (let i = 0; i < 3; i++) expect((await client.signUp(uniqueEmail(), 'secret-1')).status).toBe(200);
    const blocked = await client.signUp(uniqueEmail(), 'secret-1');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(tooMany);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('limits reset emails per email and per IP, and reset-code attempts per IP', async () => {
    const send = (email: string) => client.call('/v1/accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email });
    const email = uniqueEmail('nobody');
    expect((await send(email)).status).toBe(200);
    expect((await send(email)).status).toBe(200);
    expect((await send(email)).body).toEqual(tooMany);
    expect((await send(uniqueEmail('nobody'))).status).toBe(200);
    expect((await send(uniqueEmail('nobody'))).status).toBe(429);

    for (let i = 0; i < 3; i++) {
      expect((await client.call('/v1/accounts:resetPassword', { oobCode: 'A'.repeat(43) })).body).toEqual(
        protocolError('INVALID_OOB_CODE'),
      );
    }
    const blocked = await client.call('/v1/accounts:resetPassword', { oobCode: 'A'.repeat(43) });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(tooMany);
  });
});

describe.each(storageDatabases())('sign-in limits under concurrency on $dialect', (dialectCase) => {
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;

  beforeAll(async () => {
    server = await startTestApp(dialectCase); // default limits: 10 per email, 100 per IP
    client = identityClient(server.url);
  });
  afterAll(() => server.close());

  it('counts parallel guesses before verifying them, so no more than the limit are tried', async () => {
    const email = uniqueEmail('target');
    await client.signUp(email, 'secret-1');
    // Open the connections first, so the guesses reach the server together rather than one handshake apart.
    await Promise.all(Array.from({ length: 30 }, () => client.call('/v2/passwordPolicy')));
    // The right password hides among the guesses, after the limit: it must not be tried.
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 20 ? 'secret-1' : `wrong-password-${i}`));
    const answers = await Promise.all(guesses.map((guess) => client.signIn(email, guess)));
    const refused = answers.filter((answer) => answer.status === 400);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(answers[20]!.status).toBe(429);
    expect(refused.length).toBeLessThanOrEqual(10);
    expect(refused.length + limited.length).toBe(30);
    for (const answer of refused) expect(answer.body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
    for (const answer of limited) {
      expect(answer.body).toEqual(tooMany);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('lets the right password in after a few failures and forgets them', async () => {
    const email = uniqueEmail('typo');
    await client.signUp(email, 'secret-1');
    for (let i = 0; i < 3; i++) {
      expect((await client.signIn(email, 'wrong-password')).body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
    }
    expect((await client.signIn(email, 'secret-1')).status).toBe(200);
    // The counter starts over: the full limit of 10 failures is available again.
    for (let i = 0; i < 10; i++) {
      expect((await client.signIn(email, 'wrong-password')).body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
    }
    expect((await client.signIn(email, 'wrong-password')).status).toBe(429);
  });
});
