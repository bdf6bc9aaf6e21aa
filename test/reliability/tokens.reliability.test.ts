import fs from 'node:fs';
import path from 'node:path';
import { importJWK, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disableAccount } from '../support/operatorActions.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { storageDatabases } from '../support/testDatabases.ts';
import { call, signUpUser, type LoadUser } from './loadClient.ts';

/**
 * Every way an ID token or refresh token can be wrong is refused with the protocol's code on
 * /identity and with a 401 on the articles API; no refresh token, reset code or password is
 * stored in plain form. (identity/verifyIdToken.test.ts checks the verifier itself; this goes
 * through both HTTP surfaces of the whole app.)
 */
describe.each(storageDatabases())('token refusals on $dialect', (dialectCase) => {
  let server: TestApp;
  const PUBLIC_URL = 'http://inkwell.test';
  const issuedSecrets: string[] = [];

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { PUBLIC_URL, RATE_LIMIT_SIGNUP_PER_IP: '1000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const newUser = async (label: string) => {
    const user = await signUpUser(server.url, label);
    issuedSecrets.push(user.refreshToken, user.password);
    return user;
  };
  const lookup = (idToken: string) => call(`${server.url}/identity/v1/accounts:lookup?key=k`, { json: { idToken } });
  const refresh = (refreshToken: string) =>
    call(`${server.url}/identity/v1/token?key=k`, {
      json: { grant_type: 'refresh_token', refresh_token: refreshToken },
    });

  async function expectRefusedEverywhere(idToken: string, code: string, what: string) {
    const answer = await lookup(idToken);
    expect(answer.status, what).toBe(400);
    expect((answer.body as { error: { message: string } }).error.message, what).toBe(code);
    const response = await fetch(`${server.url}/api/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify({ image: 'https://a.example/x.jpg', title: 'Refused', description: 'Refused' }),
    });
    expect(response.status, what).toBe(401);
    expect(response.headers.get('www-authenticate'), what).toBe('Bearer error="invalid_token"');
    expect(response.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
    await response.text();
  }

  async function signingKey() {
    const row = await server.database.db.selectFrom('identity_signing_keys').selectAll().executeTakeFirstOrThrow();
    return {
      kid: row.kid,
      key: await importJWK(JSON.parse(row.private_jwk) as JWK, 'RS256'),
      publicJwk: row.public_jwk,
    };
  }

  async function forge(user: LoadUser, options: { kid?: string; iss?: string; aud?: string; iatOffset?: number } = {}) {
    const { kid, key } = await signingKey();
    const now = Math.floor(Date.now() / 1000) + (options.iatOffset ?? 0);
    const { sid } = JSON.parse(Buffer.from(user.idToken.split('.')[1]!, 'base64url').toString()) as { sid: string };
    return new SignJWT({ user_id: user.uid, sid, auth_time: now, email: user.email })
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? kid })
      .setIssuer(options.iss ?? `${PUBLIC_URL}/identity`)
      .setAudience(options.aud ?? 'inkwell')
      .setSubject(user.uid)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(key);
  }

  it('accepts a genuine and a correctly forged token (the forging is right), and refuses every altered one', async () => {
    const user = await newUser('tokens');
    expect((await lookup(user.idToken)).status).toBe(200);
    expect((await lookup(await forge(user))).status).toBe(200);

    const [header, payload, signature] = user.idToken.split('.') as [string, string, string];
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    await expectRefusedEverywhere(`${header}.${payload}.${flipped}`, 'INVALID_ID_TOKEN', 'tampered signature');

    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const other = await newUser('victim');
    const swapped = Buffer.from(JSON.stringify({ ...claims, sub: other.uid, user_id: other.uid })).toString(
      'base64url',
    );
    await expectRefusedEverywhere(`${header}.${swapped}.${signature}`, 'INVALID_ID_TOKEN', 'tampered payload');

    const { kid, publicJwk } = await signingKey();
    const none = Buffer.from(JSON.stringify({ alg: 'none', kid, typ: 'JWT' })).toString('base64url');
    await expectRefusedEverywhere(`${none}.${payload}.`, 'INVALID_ID_TOKEN', 'alg none');
    // Key confusion: HS256 keyed with the public key a client can fetch.
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid })
      .sign(new TextEncoder().encode(publicJwk));
    await expectRefusedEverywhere(hmac, 'INVALID_ID_TOKEN', 'HS256 with the public key');

    await expectRefusedEverywhere(await forge(user, { kid: 'not-our-key' }), 'INVALID_ID_TOKEN', 'wrong kid');
    await expectRefusedEverywhere(await forge(user, { aud: 'another-project' }), 'INVALID_ID_TOKEN', 'wrong aud');
    await expectRefusedEverywhere(
      await forge(user, { iss: 'https://evil.example/identity' }),
      'INVALID_ID_TOKEN',
      'wrong iss',
    );
    await expectRefusedEverywhere(await forge(user, { iatOffset: -7200 }), 'TOKEN_EXPIRED', 'expired');
    await expectRefusedEverywhere('not.a.token', 'INVALID_ID_TOKEN', 'garbage');
  });

  it('refuses tokens from before a password change, and refresh tokens after it', async () => {
    const user = await newUser('changer');
    const changed = await call(`${server.url}/identity/v1/accounts:update?key=k`, {
      json: { idToken: user.idToken, password: 'a-new-password-1', returnSecureToken: true },
    });
    expect(changed.status).toBe(200);
    issuedSecrets.push('a-new-password-1', (changed.body as { refreshToken: string }).refreshToken);
    await expectRefusedEverywhere(user.idToken, 'TOKEN_EXPIRED', 'issued before the password change');
    expect((await refresh(user.refreshToken)).body).toMatchObject({ error: { message: 'TOKEN_EXPIRED' } });
    expect((await lookup((changed.body as { idToken: string }).idToken)).status).toBe(200);
  });

  it('refuses the tokens of a disabled user and of a deleted user', async () => {
    const disabled = await newUser('disabled');
    await disableAccount(server, disabled.email);
    await expectRefusedEverywhere(disabled.idToken, 'USER_DISABLED', 'disabled user');
    // Issue 8: refresh answers USER_DISABLED for a disabled account (clients sign out on it).
    expect((await refresh(disabled.refreshToken)).body).toMatchObject({ error: { message: 'USER_DISABLED' } });

    const deleted = await newUser('deleted');
    expect(
      (await call(`${server.url}/identity/v1/accounts:delete?key=k`, { json: { idToken: deleted.idToken } })).status,
    ).toBe(200);
    await expectRefusedEverywhere(deleted.idToken, 'USER_NOT_FOUND', 'deleted user');
    // As Firebase answers a deleted account's refresh (DESIGN §9.1).
    expect((await refresh(deleted.refreshToken)).body).toMatchObject({ error: { message: 'USER_NOT_FOUND' } });
  });

  it('refuses a refresh token reused after it was revoked', async () => {
    const user = await newUser('revoker');
    expect((await refresh(user.refreshToken)).status).toBe(200);
    const revoked = await call(`${server.url}/identity/v2/accounts:revokeToken?key=k`, {
      json: { token: user.refreshToken, tokenType: 'REFRESH_TOKEN' },
    });
    expect(revoked.status).toBe(200);
    const reused = await refresh(user.refreshToken);
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: { message: 'TOKEN_EXPIRED' } });
  });

  it('stores no refresh token, reset code or password in plain form', async () => {
    const user = await newUser('reset');
    const sent = await call(`${server.url}/identity/v1/accounts:sendOobCode?key=k`, {
      json: { requestType: 'PASSWORD_RESET', email: user.email },
    });
    expect(sent.status).toBe(200);
    // The dev outbox (no SMTP_URL) holds the email; quoted-printable may fold lines and escape '='.
    const outbox = path.join(server.config.dataDir, 'outbox');
    const mail = fs
      .readdirSync(outbox)
      .map((file) => fs.readFileSync(path.join(outbox, file), 'utf8').replace(/=\r?\n/g, ''))
      .find((text) => text.includes(user.email))!;
    const code = /oobCode(?:=3D|=)([A-Za-z0-9_-]{43})/.exec(mail)![1]!;
    issuedSecrets.push(code);
    // A second session, in cookie mode, whose token only ever travels in a cookie.
    const cookieSignIn = await fetch(`${server.url}/identity/v1/accounts:signInWithPassword?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-inkwell-session': 'cookie' },
      body: JSON.stringify({ email: user.email, password: user.password, returnSecureToken: true }),
    });
    const cookie = /inkwell_session=([^;]+)/.exec(cookieSignIn.headers.get('set-cookie') ?? '')![1]!;
    issuedSecrets.push(cookie);

    const tables = [
      'users',
      'identity_sessions',
      'identity_oob_codes',
      'identity_signing_keys',
      'rate_limit_counters',
      'articles',
    ] as const;
    let dump = '';
    for (const table of tables)
      dump += JSON.stringify(await server.database.db.selectFrom(table).selectAll().execute());
    expect(issuedSecrets.length).toBeGreaterThan(10);
    for (const secret of issuedSecrets)
      expect(dump.includes(secret), `a secret (${secret.slice(0, 6)}…) is stored in plain form`).toBe(false);
    // Counters are keyed by hashes, not by email addresses.
    const counters = JSON.stringify(await server.database.db.selectFrom('rate_limit_counters').selectAll().execute());
    expect(counters).not.toContain(user.email);
    expect(counters).not.toContain('127.0.0.1');
  });
});
