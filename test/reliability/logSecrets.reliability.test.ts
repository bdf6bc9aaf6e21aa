import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../support/smtpSink.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { storageDatabases } from '../support/testDatabases.ts';

/**
 * No secret in any log line: a full account and article flow runs with the app's logger at
 * `trace`, writing to a captured stream; afterwards the log is searched for every password,
 * ID token, refresh token, reset code and cookie value the flow used.
 */
describe.each(storageDatabases())('logs hold no secrets on $dialect', (dialectCase) => {
  let server: TestApp;
  let sink: SmtpSink;
  let log = '';
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    sink = await startSmtpSink();
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    server = await startTestApp(dialectCase, { SMTP_URL: sink.url, LOG_LEVEL: 'trace' }, { logStream: stream });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      headers: response.headers,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- protocol JSON of many shapes
      body: (await response.json().catch(() => ({}))) as any,
    };
  }

  it('logs requests at trace level without any password, token, code or cookie', async () => {
    const email = `logged-${Date.now()}@example.com`;
    secrets.password1 = 'first-Secret-pw-1';
    const signUp = await post('/identity/v1/accounts:signUp?key=api-key-value', {
      email,
      password: secrets.password1,
      returnSecureToken: true,
    });
    expect(signUp.status).toBe(200);
    secrets.idToken1 = signUp.body.idToken;
    secrets.refreshToken1 = signUp.body.refreshToken;

    await post('/identity/v1/accounts:signInWithPassword', {
      email,
      password: 'a-wrong-Guess-1',
      returnSecureToken: true,
    });
    secrets.wrongGuess = 'a-wrong-Guess-1';
    const cookieSignIn = await post(
      '/identity/v1/accounts:signInWithPassword',
      { email, password: secrets.password1, returnSecureToken: true },
      { 'x-inkwell-session': 'cookie' },
    );
    secrets.cookie = /inkwell_session=([^;]+)/.exec(cookieSignIn.headers.get('set-cookie') ?? '')![1]!;
    secrets.idToken2 = cookieSignIn.body.idToken;
    const cookieRefresh = await post(
      '/identity/v1/token',
      { grant_type: 'refresh_token' },
      { 'x-inkwell-session': 'cookie', cookie: `inkwell_session=${secrets.cookie}` },
    );
    expect(cookieRefresh.status).toBe(200);
    secrets.idToken3 = cookieRefresh.body.id_token;

    const refreshed = await fetch(`${server.url}/identity/v1/token?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${secrets.refreshToken1}`,
    });
    secrets.idToken4 = ((await refreshed.json()) as { id_token: string }).id_token;
    await post('/identity/v1/accounts:lookup', { idToken: secrets.idToken4 });

    const article = await post(
      '/api/articles',
      { image: 'https://a.example/x.jpg', title: 'Logged', description: 'Logged' },
      { authorization: `Bearer ${secrets.idToken4}` },
    );
    expect(article.status).toBe(201);
    await fetch(`${server.url}/api/articles/${article.body.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${secrets.idToken4}` },
    });
    await post('/api/articles', { title: 'x' }, { authorization: `Bearer ${secrets.idToken1}.tampered` });

    secrets.password2 = 'second-Secret-pw-2';
    const changed = await post('/identity/v1/accounts:update', {
      idToken: secrets.idToken4,
      password: secrets.password2,
      returnSecureToken: true,
    });
    expect(changed.status).toBe(200);
    secrets.idToken5 = changed.body.idToken;
    secrets.refreshToken2 = changed.body.refreshToken;

    const before = sink.messages.length;
    expect((await post('/identity/v1/accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email })).status).toBe(
      200,
    );
    const mail = await sink.waitForMail(email, { after: before, subject: /Reset your/ });
    secrets.oobCode = /oobCode=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    // The reset page's URL carries the code, as the email link does.
    await fetch(`${server.url}/reset-password?oobCode=${secrets.oobCode}`);
    secrets.password3 = 'third-Secret-pw-3';
    expect(
      (await post('/identity/v1/accounts:resetPassword', { oobCode: secrets.oobCode, newPassword: secrets.password3 }))
        .status,
    ).toBe(200);

    const signIn = await post('/identity/v1/accounts:signInWithPassword', {
      email,
      password: secrets.password3,
      returnSecureToken: true,
    });
    secrets.refreshToken3 = signIn.body.refreshToken;
    await post('/identity/v2/accounts:revokeToken', { token: secrets.refreshToken3, tokenType: 'REFRESH_TOKEN' });
    await post('/identity/v1/accounts:delete', { idToken: signIn.body.idToken });

    await new Promise((resolve) => setTimeout(resolve, 100)); // let the last log lines arrive
    expect(log).toContain('incoming request');
    expect(log.split('\n').length).toBeGreaterThan(30);
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret, name).toBeTruthy();
      expect(log.includes(secret), `the log contains ${name}`).toBe(false);
      // A token's signature alone is enough to matter.
      if (secret.split('.').length === 3)
        expect(log.includes(secret.split('.')[2]!), `the log contains ${name}'s signature`).toBe(false);
    }
    expect(log).not.toContain('api-key-value');
    // Nor the person's address, though mail went to it (review finding 8).
    expect(log.toLowerCase()).not.toContain(email.toLowerCase());
  });
});
