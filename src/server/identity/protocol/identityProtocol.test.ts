import { PassThrough } from 'node:stream';
import { decodeJwt, decodeProtectedHeader, createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disableAccount } from '../../../../test/support/operatorActions.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { identityClient, protocolError, uniqueEmail } from '../../../../test/support/identityTestClient.ts';

describe.each(contractDatabases())('the /identity protocol on $dialect', (dialectCase) => {
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;
  let clockOffset = 0;
  const logLines: string[] = [];

  beforeAll(async () => {
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => logLines.push(chunk.toString()));
    server = await startTestApp(
      dialectCase,
      { LOG_LEVEL: 'info', PUBLIC_URL: 'http://inkwell.test' },
      { logStream, clock: () => Date.now() + clockOffset },
    );
    client = identityClient(server.url);
  });
  afterAll(() => server.close());

  it('signs up, returning tokens per the contract', async () => {
    const email = uniqueEmail();
    const answer = await client.signUp(`  ${email.toUpperCase()} `, 'secret-1', {
      displayName: 'Ada',
      clientType: 'x',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      kind: 'identitytoolkit#SignupNewUserResponse',
      email,
      displayName: 'Ada',
      expiresIn: '3600',
    });
    expect(answer.body.localId).toMatch(/^[A-Za-z0-9_-]{28}$/);
    expect(answer.body.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const header = decodeProtectedHeader(answer.body.idToken);
    expect(header.alg).toBe('RS256');
    expect(header.kid).toEqual(expect.any(String));
    const claims = decodeJwt(answer.body.idToken);
    expect(claims).toMatchObject({
      iss: 'http://inkwell.test/identity',
      aud: 'inkwell',
      sub: answer.body.localId,
      user_id: answer.body.localId,
      email,
      email_verified: false,
      name: 'Ada',
      firebase: { identities: { email: [email] }, sign_in_provider: 'password' },
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.auth_time).toEqual(expect.any(Number));
    expect(claims.jti).toEqual(expect.any(String));

    // The token verifies against the published JWKS.
    const jwks = await client.call('/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'RSA', kid: header.kid, alg: 'RS256' });
    expect(jwks.body.keys[0].d).toBeUndefined();
    await jwtVerify(answer.body.idToken, createLocalJWKSet(jwks.body));
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    const email = uniqueEmail();
    expect((await client.signUp(email, 'secret-1')).status).toBe(200);
    const again = await client.signUp(email.toUpperCase(), 'secret-2');
    expect(again.status).toBe(400);
    expect(again.body).toEqual(protocolError('EMAIL_EXISTS'));
  });

  it('answers sign-up input errors with the protocol codes', async () => {
    const cases: [unknown, string][] = [
      [{ password: 'secret-1' }, 'MISSING_EMAIL'],
      [{ email: '', password: 'secret-1' }, 'MISSING_EMAIL'],
      [{ email: 'not-an-email', password: 'secret-1' }, 'INVALID_EMAIL'],
      [{ email: 42, password: 'secret-1' }, 'INVALID_EMAIL'],
      [{ email: uniqueEmail() }, 'MISSING_PASSWORD'],
      [{ email: uniqueEmail(), password: '12345' }, 'WEAK_PASSWORD : Password should be at least 6 characters'],
      [{ email: uniqueEmail(), password: ' \t  \u00a0  ' }, 'WEAK_PASSWORD : Password cannot be only spaces'],
      [
        { email: uniqueEmail(), password: 'x'.repeat(4097) },
        'WEAK_PASSWORD : Password should be at most 4096 characters',
      ],
      [{ email: uniqueEmail(), password: 'secret-1', displayName: 'x'.repeat(101) }, 'INVALID_DISPLAY_NAME'],
      [[1, 2], 'INVALID_REQUEST'],
    ];
    for (const [body, message] of cases) {
      const answer = await client.call('/v1/accounts:signUp', body);
      expect(answer.body, JSON.stringify(body).slice(0, 80)).toEqual(protocolError(message));
    }
  });

  it('keeps passwords at full length: a 4096-character password is not truncated', async () => {
    const email = uniqueEmail();
    const long = 'a'.repeat(4096);
    expect((await client.signUp(email, long)).status).toBe(200);
    expect((await client.signIn(email, long)).status).toBe(200);
    const truncated = await client.signIn(email, 'a'.repeat(4095));
    expect(truncated.body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
  });

  it('signs in, and answers wrong password and unknown email alike', async () => {
    const email = uniqueEmail();
    const signUp = await client.signUp(email, 'secret-1');
    const signIn = await client.signIn(email.toUpperCase(), 'secret-1');
    expect(signIn.status).toBe(200);
    expect(signIn.body).toMatchObject({
      kind: 'identitytoolkit#VerifyPasswordResponse',
      localId: signUp.body.localId,
      email,
      displayName: '',
      registered: true,
      expiresIn: '3600',
    });
    expect(signIn.body.refreshToken).not.toBe(signUp.body.refreshToken);

    const wrong = await client.signIn(email, 'secret-2');
    const unknown = await client.signIn(uniqueEmail('nobody'), 'secret-1');
    expect(wrong.status).toBe(400);
    expect(wrong.text).toBe(unknown.text);
    expect(wrong.body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
    expect((await client.call('/v1/accounts:signInWithPassword', { email })).body).toEqual(
      protocolError('MISSING_PASSWORD'),
    );
  });

  it('looks up the account, without anything secret', async () => {
    const email = uniqueEmail();
    const signUp = await client.signUp(email, 'secret-1', { displayName: 'Grace' });
    const answer = await client.lookup(signUp.body.idToken);
    expect(answer.status).toBe(200);
    const [user] = answer.body.users;
    expect(user).toMatchObject({
      localId: signUp.body.localId,
      email,
      emailVerified: false,
      displayName: 'Grace',
      providerUserInfo: [{ providerId: 'password', rawId: email, federatedId: email, email, displayName: 'Grace' }],
    });
    expect(user.createdAt).toMatch(/^\d{13}$/);
    expect(user.lastLoginAt).toMatch(/^\d{13}$/);
    expect(user.validSince).toMatch(/^\d{10}$/);
    expect(answer.text).not.toMatch(/argon2|passwordHash/);

    expect((await client.lookup('not-a-token')).body).toEqual(protocolError('INVALID_ID_TOKEN'));
    expect((await client.call('/v1/accounts:lookup', {})).body).toEqual(protocolError('MISSING_ID_TOKEN'));
  });

  it('updates the profile and removes attributes', async () => {
    const signUp = await client.signUp(uniqueEmail(), 'secret-1');
    const idToken = signUp.body.idToken;
    const set = await client.update({
      idToken,
      displayName: 'Linus',
      photoUrl: 'https://example.com/me.png',
      returnSecureToken: true,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      displayName: 'Linus',
      photoUrl: 'https://example.com/me.png',
      emailVerified: false,
    });
    expect(set.body.idToken).toBeUndefined();

    const bad = await client.update({ idToken, photoUrl: 'javascript:alert(1)' });
    expect(bad.body).toEqual(protocolError('INVALID_PHOTO_URL'));
    expect((await client.update({ idToken, displayName: 'x'.repeat(101) })).body).toEqual(
      protocolError('INVALID_DISPLAY_NAME'),
    );
    expect((await client.update({ idToken, deleteAttribute: ['EMAIL'] })).body).toEqual(
      protocolError('INVALID_REQUEST'),
    );

    const removed = await client.update({ idToken, deleteAttribute: ['DISPLAY_NAME', 'PHOTO_URL'] });
    expect(removed.status).toBe(200);
    expect(removed.body.displayName).toBeUndefined();
    expect(removed.body.photoUrl).toBeUndefined();
    const lookup = await client.lookup(idToken);
    expect(lookup.body.users[0].displayName).toBeUndefined();
  });

  it('changes the password: fresh tokens for the caller, every other session and token dead', async () => {
    const email = uniqueEmail();
    const first = await client.signUp(email, 'secret-1');
    const other = await client.signIn(email, 'secret-1');
    const changed = await client.update({ idToken: first.body.idToken, password: 'secret-2', returnSecureToken: true });
    expect(changed.status).toBe(200);
    expect(changed.body.idToken).toEqual(expect.any(String));
    expect(changed.body.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(changed.body.expiresIn).toBe('3600');

    // The new ID token works; the old ones and old refresh tokens do not.
    expect((await client.lookup(changed.body.idToken)).status).toBe(200);
    expect((await client.lookup(other.body.idToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await client.refresh(other.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await client.refresh(first.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await client.refresh(changed.body.refreshToken)).status).toBe(200);
    expect((await client.signIn(email, 'secret-2')).status).toBe(200);

    const weak = await client.update({ idToken: changed.body.idToken, password: '123' });
    expect(weak.body).toEqual(protocolError('WEAK_PASSWORD : Password should be at least 6 characters'));
    const blank = await client.update({ idToken: changed.body.idToken, password: '        ' });
    expect(blank.body).toEqual(protocolError('WEAK_PASSWORD : Password cannot be only spaces'));
  });

  it('changes the email, refusing a taken one', async () => {
    const email = uniqueEmail();
    const taken = uniqueEmail();
    await client.signUp(taken, 'secret-1');
    const signUp = await client.signUp(email, 'secret-1');
    const clash = await client.update({ idToken: signUp.body.idToken, email: taken.toUpperCase() });
    expect(clash.body).toEqual(protocolError('EMAIL_EXISTS'));
    expect((await client.update({ idToken: signUp.body.idToken, email: 'nope' })).body).toEqual(
      protocolError('INVALID_EMAIL'),
    );

    const fresh = uniqueEmail('moved');
    const changed = await client.update({ idToken: signUp.body.idToken, email: fresh, returnSecureToken: true });
    expect(changed.status).toBe(200);
    expect(changed.body.email).toBe(fresh);
    expect(decodeJwt(changed.body.idToken).email).toBe(fresh);
    expect((await client.signIn(fresh, 'secret-1')).status).toBe(200);
    expect((await client.signIn(email, 'secret-1')).body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
  });

  it('asks for a recent sign-in before changing email or password or deleting', async () => {
    const email = uniqueEmail();
    const signUp = await client.signUp(email, 'secret-1');
    clockOffset = 6 * 60 * 1000;
    try {
      // The ID token is still valid (6 minutes old) but its sign-in is too old.
      const idToken = (await client.refresh(signUp.body.refreshToken)).body.id_token;
      for (const body of [
        { idToken, password: 'secret-2' },
        { idToken, email: uniqueEmail() },
      ]) {
        expect((await client.update(body)).body).toEqual(protocolError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN'));
      }
      expect((await client.call('/v1/accounts:delete', { idToken })).body).toEqual(
        protocolError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN'),
      );
      // A display name needs no recent sign-in.
      expect((await client.update({ idToken, displayName: 'Still me' })).status).toBe(200);
    } finally {
      clockOffset = 0;
    }
  });

  it('expires ID tokens after an hour', async () => {
    const signUp = await client.signUp(uniqueEmail(), 'secret-1');
    clockOffset = 3601 * 1000;
    try {
      expect((await client.lookup(signUp.body.idToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    } finally {
      clockOffset = 0;
    }
  });

  it('refreshes tokens, form-encoded or JSON, and refuses bad refresh requests', async () => {
    const signUp = await client.signUp(uniqueEmail(), 'secret-1');
    const form = await client.call('/v1/token', undefined, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: `grant_type=refresh_token&refresh_token=${signUp.body.refreshToken}`,
    });
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({
      access_token: expect.any(String),
      id_token: expect.any(String),
      refresh_token: signUp.body.refreshToken,
      expires_in: '3600',
      token_type: 'Bearer',
      user_id: signUp.body.localId,
      project_id: 'inkwell',
    });
    expect(form.body.id_token).not.toBe(signUp.body.idToken);
    expect((await client.refresh(signUp.body.refreshToken)).status).toBe(200);

    expect((await client.call('/v1/token', { grant_type: 'refresh_token' })).body).toEqual(
      protocolError('MISSING_REFRESH_TOKEN'),
    );
    expect((await client.call('/v1/token', { grant_type: 'password', refresh_token: 'x' })).body).toEqual(
      protocolError('INVALID_GRANT_TYPE'),
    );
    expect((await client.refresh('garbage')).body).toEqual(protocolError('INVALID_REFRESH_TOKEN'));
    expect((await client.refresh('A'.repeat(43))).body).toEqual(protocolError('TOKEN_EXPIRED'));
  });

  it('kills refresh tokens on revokeToken and after 30 days unused', async () => {
    const signUp = await client.signUp(uniqueEmail(), 'secret-1');
    const signIn = await client.signIn(signUp.body.email, 'secret-1');
    const revoked = await client.call('/v2/accounts:revokeToken', {
      token: signUp.body.refreshToken,
      tokenType: 'REFRESH_TOKEN',
      idToken: signUp.body.idToken,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({});
    expect((await client.refresh(signUp.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));

    clockOffset = 29 * 24 * 3600 * 1000;
    try {
      expect((await client.refresh(signIn.body.refreshToken)).status).toBe(200);
      clockOffset += 31 * 24 * 3600 * 1000;
      expect((await client.refresh(signIn.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    } finally {
      clockOffset = 0;
    }
  });

  it('answers USER_DISABLED for a disabled account everywhere', async () => {
    const email = uniqueEmail();
    const signUp = await client.signUp(email, 'secret-1');
    // Operators disable accounts through the admin command; there is no endpoint for it.
    await disableAccount(server, email);
    expect((await client.signIn(email, 'secret-1')).body).toEqual(protocolError('USER_DISABLED'));
    expect((await client.lookup(signUp.body.idToken)).body).toEqual(protocolError('USER_DISABLED'));
    // The session cannot be refreshed either; clients sign out on USER_DISABLED.
    expect((await client.refresh(signUp.body.refreshToken)).body).toEqual(protocolError('USER_DISABLED'));
  });

  it('deletes the account: its tokens stop working', async () => {
    const email = uniqueEmail();
    const signUp = await client.signUp(email, 'secret-1');
    const deleted = await client.call('/v1/accounts:delete', { idToken: signUp.body.idToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ kind: 'identitytoolkit#DeleteAccountResponse' });
    expect((await client.lookup(signUp.body.idToken)).body).toEqual(protocolError('USER_NOT_FOUND'));
    expect((await client.refresh(signUp.body.refreshToken)).body).toEqual(protocolError('USER_NOT_FOUND'));
    expect((await client.signIn(email, 'secret-1')).body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
    // The email is free again.
    expect((await client.signUp(email, 'secret-1')).status).toBe(200);
  });

  it('serves the password policy', async () => {
    const answer = await client.call('/v2/passwordPolicy');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      customStrengthOptions: { minPasswordLength: 6, maxPasswordLength: 4096 },
      allowedNonAlphanumericCharacters: [],
      enforcementState: 'ENFORCE',
      forceUpgradeOnSignin: false,
      schemaVersion: 1,
    });
  });

  it('answers bad requests with protocol JSON, never a 500 or HTML', async () => {
    const endpoints = [
      '/v1/accounts:signUp',
      '/v1/accounts:signInWithPassword',
      '/v1/accounts:lookup',
      '/v1/accounts:update',
      '/v1/accounts:delete',
      '/v1/accounts:sendOobCode',
      '/v1/accounts:resetPassword',
      '/v1/token',
      '/v2/accounts:revokeToken',
    ];
    const bodies: { raw: string; type: string; status: number }[] = [
      { raw: '{not json', type: 'application/json', status: 400 },
      { raw: '"a string"', type: 'application/json', status: 400 },
      { raw: 'null', type: 'application/json', status: 400 },
      {
        raw: '{"email":{"$ne":1},"password":[1],"idToken":7,"oobCode":{},"grant_type":[],"requestType":5}',
        type: 'application/json',
        status: 400,
      },
      { raw: '{"__proto__":{"x":1}}', type: 'application/json', status: 400 },
      { raw: 'hello', type: 'text/plain', status: 415 },
      { raw: JSON.stringify({ email: 'x'.repeat(70 * 1024) }), type: 'application/json', status: 413 },
    ];
    for (const endpoint of endpoints) {
      for (const { raw, type, status } of bodies) {
        const answer = await client.call(endpoint, undefined, { raw, headers: { 'content-type': type } });
        const label = `${endpoint} ${raw.slice(0, 30)}`;
        expect(answer.status, label).toBe(status);
        expect(answer.headers.get('content-type'), label).toMatch(/^application\/json/);
        expect(answer.body?.error?.code, `${label} ${answer.text.slice(0, 200)}`).toBe(status);
        expect(answer.body.error.errors[0].message, label).toBe(answer.body.error.message);
        expect(answer.text, label).not.toMatch(/at \w+ \(|stack/i);
      }
    }
    const unknownType = await client.call('/v1/accounts:sendOobCode', {
      requestType: 'SELF_DESTRUCT',
      email: uniqueEmail(),
    });
    expect(unknownType.body).toEqual(protocolError('INVALID_REQ_TYPE'));
    const missingType = await client.call('/v1/accounts:sendOobCode', { email: uniqueEmail() });
    expect(missingType.body).toEqual(protocolError('MISSING_REQ_TYPE'));
    const unknownPath = await client.call('/v1/accounts:nothing', {});
    expect(unknownPath.status).toBe(404);
    expect(unknownPath.body).toEqual(protocolError('NOT_FOUND', 404));
    const wrongMethod = await client.call('/v1/accounts:signUp');
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.body.error.code).toBe(404);
  });

  it('stores refresh tokens only hashed', async () => {
    const signUp = await client.signUp(uniqueEmail(), 'secret-1');
    const rows = await server.database.db.selectFrom('identity_sessions').selectAll().execute();
    const dump = JSON.stringify(rows);
    expect(rows.length).toBeGreaterThan(0);
    expect(dump).not.toContain(signUp.body.refreshToken);
    const users = await server.database.db.selectFrom('users').select('password_hash').execute();
    expect(users.every((user) => user.password_hash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$'))).toBe(true);
  });

  it('writes no password, token or email body to the logs', async () => {
    const email = uniqueEmail();
    const password = 'very-secret-password-1';
    const signUp = await client.signUp(email, password);
    await client.signIn(email, 'wrong-password-77');
    await client.refresh(signUp.body.refreshToken);
    await client.call('/v1/token', undefined, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: `grant_type=refresh_token&refresh_token=${signUp.body.refreshToken}`,
    });
    await client.lookup(signUp.body.idToken);
    const logs = logLines.join('');
    expect(logs).toContain('"url"');
    for (const secret of [password, 'wrong-password-77', signUp.body.refreshToken, signUp.body.idToken, 'test-key']) {
      expect(logs).not.toContain(secret);
    }
  });
});
