import fc from 'fast-check';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { signUpWithVerifiedAddress } from '../../../test/support/verifiedAccounts.ts';
import { databaseUrl, runAdmin } from '../../../test/support/adminRunner.ts';
import { identityClient, protocolError } from '../../../test/support/identityTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { softAuthenticator, type SoftPasskey } from './testAuthenticator.ts';

const PUBLIC_URL = 'https://blog.example';

describe.each(contractDatabases())('passkeys on $dialect', (dialectCase) => {
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;
  let offset = 0;
  // Everything the browser would do, against the real server.
  const authenticator = softAuthenticator(PUBLIC_URL);

  beforeAll(async () => {
    server = await startTestApp(
      dialectCase,
      { PUBLIC_URL, RATE_LIMIT_SIGNIN_PER_EMAIL: '4', RATE_LIMIT_SIGNIN_PER_IP: '1000', RECENT_SIGN_IN_SECONDS: '300' },
      { clock: () => Date.now() + offset },
    );
    client = identityClient(server.url);
  });
  afterAll(() => server.close());

  const call = (name: string, body: unknown, headers: Record<string, string> = {}) =>
    client.call(`/v1/passkeys:${name}`, body, { headers });

  async function register(user: { idToken: string }, name?: string): Promise<SoftPasskey> {
    const started = await call('startRegistration', { idToken: user.idToken });
    expect(started.status).toBe(200);
    const { response, passkey } = authenticator.register(started.body.options);
    const finished = await call('finishRegistration', { idToken: user.idToken, credential: response, name });
    expect(finished.status).toBe(200);
    return passkey;
  }

  async function signInWith(passkey: SoftPasskey, forged: Parameters<typeof authenticator.signIn>[2] = {}) {
    const started = await call('startSignIn', {});
    expect(started.status).toBe(200);
    return call('finishSignIn', { credential: authenticator.signIn(started.body.options, passkey, forged) });
  }

  it('registers a passkey, signs in with it like signInWithPassword, and the token says "passkey"', async () => {
    const ada = await signUpWithVerifiedAddress(server, 'Ada');
    const started = await call('startRegistration', { idToken: ada.idToken });
    expect(started.body.options).toMatchObject({
      rp: { id: 'blog.example' },
      user: { name: ada.email, displayName: 'Ada' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const { response, passkey } = authenticator.register(started.body.options);
    const finished = await call('finishRegistration', {
      idToken: ada.idToken,
      credential: response,
      name: '  Chrome on Linux ',
    });
    expect(finished.status).toBe(200);
    expect(finished.body.passkey).toEqual({
      credentialId: passkey.id,
      name: 'Chrome on Linux',
      createdAt: expect.stringMatching(/^\d{13}$/),
      lastUsedAt: null,
    });

    const signedIn = await signInWith(passkey);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({
      kind: 'identitytoolkit#VerifyPasswordResponse',
      localId: ada.uid,
      email: ada.email,
      displayName: 'Ada',
      idToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: '3600',
      registered: true,
    });
    const claims = decodeJwt(signedIn.body.idToken);
    expect(claims.firebase).toMatchObject({ sign_in_provider: 'passkey' });
    expect(claims.sub).toBe(ada.uid);
    expect(Math.abs((claims.auth_time as number) - Date.now() / 1000)).toBeLessThan(5);

    // The token works like any other, and a refreshed one still says how the session began.
    expect((await articlesApi(server.url).create(signedIn.body.idToken, sampleArticle())).status).toBe(201);
    const refreshed = await client.refresh(signedIn.body.refreshToken);
    expect(decodeJwt(refreshed.body.id_token).firebase).toMatchObject({ sign_in_provider: 'passkey' });
    // A password session keeps saying "password".
    const byPassword = await client.signIn(ada.email, ada.password);
    expect(decodeJwt(byPassword.body.idToken).firebase).toMatchObject({ sign_in_provider: 'password' });
    expect(decodeJwt((await client.refresh(byPassword.body.refreshToken)).body.id_token).firebase).toMatchObject({
      sign_in_provider: 'password',
    });

    const listed = await call('list', { idToken: signedIn.body.idToken });
    expect(listed.body).toEqual({
      kind: 'inkwell#PasskeyList',
      passkeys: [{ ...finished.body.passkey, lastUsedAt: expect.stringMatching(/^\d{13}$/) }],
    });
  });

  it('never gives two passkeys of an account the same default name; another account and renames are free (issue 26.9)', async () => {
    const owner = await signUpWithVerifiedAddress(server, 'Two keys');
    for (const proposed of ['Chrome on Linux', 'chrome on linux', ' Chrome on Linux', undefined, undefined]) {
      await register(owner, proposed);
    }
    const names = async (user: TestUser) =>
      ((await call('list', { idToken: user.idToken })).body.passkeys as { name: string }[]).map(({ name }) => name);
    expect(await names(owner)).toEqual([
      'Chrome on Linux',
      'chrome on linux (2)',
      'Chrome on Linux (3)',
      'Passkey',
      'Passkey (2)',
    ]);
    // A number that still fits the name's limit.
    const long = 'x'.repeat(100);
    await register(owner, long);
    await register(owner, long);
    expect((await names(owner)).slice(-2)).toEqual([long, `${'x'.repeat(96)} (2)`]);

    // Names are per account.
    const other = await signUpWithVerifiedAddress(server, 'Other');
    await register(other, 'Chrome on Linux');
    expect(await names(other)).toEqual(['Chrome on Linux']);
  });

  it('in browser session mode puts the refresh token in the cookie, not the body', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Cookie');
    const passkey = await register(user);
    const started = await call('startSignIn', {}, { 'x-inkwell-session': 'cookie' });
    const answer = await call(
      'finishSignIn',
      { credential: authenticator.signIn(started.body.options, passkey) },
      { 'x-inkwell-session': 'cookie' },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.refreshToken).toBeUndefined();
    expect(answer.headers.get('set-cookie')).toMatch(/^inkwell_session=[^;]+;.*HttpOnly/i);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a replayed challenge, for sign-in and for registration', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Replay');
    const passkey = await register(user);
    const started = await call('startSignIn', {});
    const first = authenticator.signIn(started.body.options, passkey);
    expect((await call('finishSignIn', { credential: first })).status).toBe(200);
    // The very same answer again, and a fresh signature over the used challenge.
    expect((await call('finishSignIn', { credential: first })).body).toEqual(
      protocolError('INVALID_PASSKEY_CHALLENGE'),
    );
    const resigned = authenticator.signIn(started.body.options, passkey);
    expect((await call('finishSignIn', { credential: resigned })).body).toEqual(
      protocolError('INVALID_PASSKEY_CHALLENGE'),
    );

    const registration = await call('startRegistration', { idToken: user.idToken });
    const { response } = authenticator.register(registration.body.options);
    expect((await call('finishRegistration', { idToken: user.idToken, credential: response })).status).toBe(200);
    const again = authenticator.register(registration.body.options);
    expect((await call('finishRegistration', { idToken: user.idToken, credential: again.response })).body).toEqual(
      protocolError('INVALID_PASSKEY_CHALLENGE'),
    );
  });

  it('refuses a challenge past its five minutes, and a registration challenge used to sign in', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Slow');
    const passkey = await register(user);
    const started = await call('startSignIn', {});
    offset += 6 * 60 * 1000;
    try {
      const late = await call('finishSignIn', { credential: authenticator.signIn(started.body.options, passkey) });
      expect(late.body).toEqual(protocolError('INVALID_PASSKEY_CHALLENGE'));
    } finally {
      offset -= 6 * 60 * 1000;
    }
    const registration = await call('startRegistration', { idToken: user.idToken });
    const misused = authenticator.signIn({ ...registration.body.options, rpId: 'blog.example' }, passkey);
    expect((await call('finishSignIn', { credential: misused })).body).toEqual(
      protocolError('INVALID_PASSKEY_CHALLENGE'),
    );
  });

  it('refuses an answer made for another origin (a phishing site), and its challenge is gone', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Origin');
    const registration = await call('startRegistration', { idToken: user.idToken });
    const phished = authenticator.register(registration.body.options, { origin: 'https://blog.example.evil' });
    const refused = await call('finishRegistration', { idToken: user.idToken, credential: phished.response });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^INVALID_PASSKEY : .*origin/i);
    expect((await call('list', { idToken: user.idToken })).body.passkeys).toEqual([]);

    const passkey = await register(user);
    const started = await call('startSignIn', {});
    const wrongOrigin = authenticator.signIn(started.body.options, passkey, { origin: 'http://blog.example' });
    const signIn = await call('finishSignIn', { credential: wrongOrigin });
    expect(signIn.status).toBe(400);
    expect(signIn.body.error.message).toMatch(/^INVALID_PASSKEY : .*origin/i);
    const retried = await call('finishSignIn', { credential: authenticator.signIn(started.body.options, passkey) });
    expect(retried.body).toEqual(protocolError('INVALID_PASSKEY_CHALLENGE'));
  });

  it('refuses a disabled account (users disable), and users show counts the passkeys', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Disabled');
    const passkey = await register(user);
    await register(user);
    const env = { DATABASE_URL: databaseUrl(server.config.database), PUBLIC_URL };
    const shown = await runAdmin(['users', 'show', user.email, '--json'], env);
    expect(JSON.parse(shown.stdout).passkeys).toBe(2);
    expect((await runAdmin(['users', 'show', user.email], env)).stdout).toContain('Passkeys:      2\n');

    expect((await runAdmin(['users', 'disable', user.email], env)).code).toBe(0);
    expect((await signInWith(passkey)).body).toEqual(protocolError('USER_DISABLED'));
    expect((await runAdmin(['users', 'enable', user.email], env)).code).toBe(0);
    expect((await signInWith(passkey)).status).toBe(200);
  });

  it('needs a recent sign-in to add a passkey; a passkey sign-in is one', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Stale');
    const passkey = await register(user);
    offset += 301 * 1000;
    try {
      expect((await call('startRegistration', { idToken: user.idToken })).body).toEqual(
        protocolError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN'),
      );
      const fresh = await signInWith(passkey);
      expect((await call('startRegistration', { idToken: fresh.body.idToken })).status).toBe(200);
      // And it lets the person change their password, as a password sign-in would.
      const changed = await client.update({ idToken: fresh.body.idToken, password: 'a-new-password' });
      expect(changed.status).toBe(200);
    } finally {
      offset -= 301 * 1000;
    }
  });

  it('finishes a registration started within the window after it closes: the challenge is the permission', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Slow prompt');
    offset += 200 * 1000;
    const started = await call('startRegistration', { idToken: user.idToken });
    offset += 150 * 1000;
    try {
      const { response } = authenticator.register(started.body.options);
      expect((await call('finishRegistration', { idToken: user.idToken, credential: response })).status).toBe(200);
      expect((await call('startRegistration', { idToken: user.idToken })).body).toEqual(
        protocolError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN'),
      );
    } finally {
      offset -= 350 * 1000;
    }
  });

  it('signs in only the passkey’s owner: a user handle naming another account signs no one in', async () => {
    const ada = await signUpWithVerifiedAddress(server, 'Owner');
    const bob = await signUpWithVerifiedAddress(server, 'Other');
    const adaKey = await register(ada);
    const bobKey = await register(bob);
    expect((await signInWith(adaKey)).body.localId).toBe(ada.uid);
    expect((await signInWith(bobKey)).body.localId).toBe(bob.uid);
    const forged = await signInWith(adaKey, { userHandle: bobKey.userHandle });
    expect(forged.body).toEqual(protocolError('PASSKEY_NOT_FOUND'));

    // Re-authenticating as Ada with Bob's passkey does not make Bob's session.
    const started = await call('startSignIn', { idToken: ada.idToken });
    expect(started.body.options.allowCredentials).toEqual([
      { id: adaKey.id, type: 'public-key', transports: ['internal'] },
    ]);
    const swapped = await call('finishSignIn', {
      idToken: ada.idToken,
      credential: authenticator.signIn(started.body.options, bobKey),
    });
    expect(swapped.body).toEqual(protocolError('INVALID_PASSKEY_CHALLENGE'));
    const again = await call('startSignIn', { idToken: ada.idToken });
    const proved = await call('finishSignIn', {
      idToken: ada.idToken,
      credential: authenticator.signIn(again.body.options, adaKey),
    });
    expect(proved.body.localId).toBe(ada.uid);
  });

  it('removes only the owner’s passkey; a removed passkey signs no one in', async () => {
    const ada = await signUpWithVerifiedAddress(server, 'Remover');
    const bob = await signUpWithVerifiedAddress(server, 'Intruder');
    const passkey = await register(ada, 'Laptop');
    expect((await call('remove', { idToken: bob.idToken, credentialId: passkey.id })).body).toEqual(
      protocolError('PASSKEY_NOT_FOUND'),
    );
    expect((await call('rename', { idToken: bob.idToken, credentialId: passkey.id, name: 'Mine' })).body).toEqual(
      protocolError('PASSKEY_NOT_FOUND'),
    );
    expect((await call('rename', { idToken: ada.idToken, credentialId: passkey.id, name: 'Work laptop' })).status).toBe(
      200,
    );
    expect((await call('list', { idToken: ada.idToken })).body.passkeys[0].name).toBe('Work laptop');
    expect((await call('remove', { idToken: ada.idToken, credentialId: passkey.id })).status).toBe(200);
    expect((await call('list', { idToken: ada.idToken })).body.passkeys).toEqual([]);
    expect((await signInWith(passkey)).body).toEqual(protocolError('PASSKEY_NOT_FOUND'));
  });

  // Review finding 7: removing a passkey kept the sessions it had opened.
  it('ends the sessions a passkey opened when it is removed, and no other session', async () => {
    const ada = await signUpWithVerifiedAddress(server, 'Loses a laptop');
    const passkey = await register(ada, 'Lost laptop');
    const other = await register(ada, 'Phone');
    const [first, second, byPhone] = [await signInWith(passkey), await signInWith(passkey), await signInWith(other)];
    for (const session of [first, second, byPhone]) expect(session.status).toBe(200);

    expect((await call('remove', { idToken: ada.idToken, credentialId: passkey.id })).status).toBe(200);
    for (const ended of [first, second]) {
      expect((await client.lookup(ended.body.idToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
      expect((await client.refresh(ended.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    }
    // The password session that removed it and the other passkey's session go on.
    expect((await client.lookup(ada.idToken)).status).toBe(200);
    expect((await client.refresh(byPhone.body.refreshToken)).status).toBe(200);
    // Removed from a session it opened itself: the others end, the one asking stays signed in.
    const tablet = await register(ada, 'Tablet');
    const [fromTablet, alsoTablet] = [await signInWith(tablet), await signInWith(tablet)];
    expect((await call('remove', { idToken: fromTablet.body.idToken, credentialId: tablet.id })).status).toBe(200);
    expect((await client.lookup(fromTablet.body.idToken)).status).toBe(200);
    expect((await client.lookup(alsoTablet.body.idToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
  });

  it('refuses a cloned authenticator whose signature counter goes back', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Clone');
    const passkey = await register(user);
    expect((await signInWith(passkey)).status).toBe(200);
    expect((await signInWith(passkey)).status).toBe(200);
    const cloned = await signInWith(passkey, { counter: 1 });
    expect(cloned.status).toBe(400);
    expect(cloned.body.error.message).toMatch(/^INVALID_PASSKEY : .*counter/i);
  });

  it('counts failed passkey sign-ins against the account’s sign-in limit', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Limited');
    const passkey = await register(user);
    for (let i = 0; i < 4; i++) {
      expect((await signInWith(passkey, { origin: 'https://evil.example' })).status).toBe(400);
    }
    const blocked = await signInWith(passkey);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(protocolError('TOO_MANY_ATTEMPTS_TRY_LATER', 429));
  });

  it('answers bad input with protocol errors, never a 500', async () => {
    const user: TestUser = await signUpWithVerifiedAddress(server, 'Bad');
    const cases: [string, unknown, string][] = [
      ['startRegistration', {}, 'INVALID_ID_TOKEN'],
      ['startRegistration', { idToken: 'nope' }, 'INVALID_ID_TOKEN'],
      ['finishRegistration', { idToken: user.idToken }, 'INVALID_PASSKEY'],
      ['finishRegistration', { idToken: user.idToken, credential: 'x' }, 'INVALID_PASSKEY'],
      ['finishSignIn', {}, 'INVALID_PASSKEY'],
      ['finishSignIn', { credential: { id: '!!', rawId: 'x', type: 'public-key', response: {} } }, 'PASSKEY_NOT_FOUND'],
      [
        'finishSignIn',
        {
          credential: {
            id: 'abc',
            rawId: 'abc',
            type: 'public-key',
            response: { clientDataJSON: 'e30', authenticatorData: '', signature: '' },
          },
        },
        'PASSKEY_NOT_FOUND',
      ],
      ['remove', { idToken: user.idToken }, 'PASSKEY_NOT_FOUND'],
      ['rename', { idToken: user.idToken, credentialId: 'abc', name: ' ' }, 'INVALID_PASSKEY_NAME'],
      ['rename', { idToken: user.idToken, credentialId: 'abc', name: 'a\u0000b' }, 'INVALID_PASSKEY_NAME'],
    ];
    for (const [name, body, code] of cases) {
      const answer = await call(name, body);
      expect([name, answer.status, answer.body?.error?.message?.split(' : ')[0]]).toEqual([name, 400, code]);
    }
    // A registration answer whose bytes are not WebAuthn at all.
    const started = await call('startRegistration', { idToken: user.idToken });
    const { response } = authenticator.register(started.body.options);
    const garbled = { ...response, response: { ...response.response, attestationObject: 'AAAA' } };
    const answer = await call('finishRegistration', { idToken: user.idToken, credential: garbled });
    expect([answer.status, answer.body.error.message.split(' : ')[0]]).toEqual([400, 'INVALID_PASSKEY']);
    const plain = await client.call('/v1/passkeys:list', undefined, {
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
  });

  it('a deleted account takes its passkeys with it', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Leaving');
    const passkey = await register(user);
    expect((await client.call('/v1/accounts:delete', { idToken: user.idToken })).status).toBe(200);
    const left = await server.database.db.selectFrom('passkeys').select('id').where('id', '=', passkey.id).execute();
    expect(left).toEqual([]);
    expect((await signInWith(passkey)).body).toEqual(protocolError('PASSKEY_NOT_FOUND'));
  });
});

// Many failed sign-ins in a row: the limits are lifted so every answer reaches the verification.
describe.each(contractDatabases())('passkey answers with random bytes on $dialect', (dialectCase) => {
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;
  const authenticator = softAuthenticator(PUBLIC_URL);

  beforeAll(async () => {
    server = await startTestApp(dialectCase, {
      PUBLIC_URL,
      RATE_LIMIT_SIGNIN_PER_EMAIL: '1000000',
      RATE_LIMIT_SIGNIN_PER_IP: '1000000',
    });
    client = identityClient(server.url);
  });
  afterAll(() => server.close());

  const call = (name: string, body: unknown) => client.call(`/v1/passkeys:${name}`, body);

  async function register(user: { idToken: string }): Promise<SoftPasskey> {
    const started = await call('startRegistration', { idToken: user.idToken });
    const { response, passkey } = authenticator.register(started.body.options);
    expect((await call('finishRegistration', { idToken: user.idToken, credential: response })).status).toBe(200);
    return passkey;
  }

  it('answers garbled ceremony answers (right shape, random bytes) with 400, never a 500', async () => {
    const user = await signUpWithVerifiedAddress(server, 'Fuzz');
    const passkey = await register(user);
    const bytes = fc.uint8Array({ maxLength: 300 }).map((value) => Buffer.from(value).toString('base64url'));
    const text = fc.oneof(bytes, fc.string({ maxLength: 40 }), fc.constant(''));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ clientDataJSON: text, authenticatorData: text, signature: text, userHandle: text }),
        fc.boolean(),
        async (parts, known) => {
          const started = await call('startSignIn', {});
          const real = authenticator.signIn(started.body.options, passkey);
          const id = known ? passkey.id : 'AAAA';
          const answer = await call('finishSignIn', {
            credential: { ...real, id, rawId: id, response: { ...real.response, ...parts } },
          });
          expect(answer.status).toBe(400);
          expect(answer.body.error.message).toMatch(/^(PASSKEY_NOT_FOUND|INVALID_PASSKEY)/);
        },
      ),
      { numRuns: 25 },
    );
    await fc.assert(
      fc.asyncProperty(fc.record({ clientDataJSON: text, attestationObject: text }), async (parts) => {
        const started = await call('startRegistration', { idToken: user.idToken });
        const { response } = authenticator.register(started.body.options);
        const answer = await call('finishRegistration', {
          idToken: user.idToken,
          credential: { ...response, response: { ...response.response, ...parts } },
        });
        expect(answer.status).toBe(400);
        expect(answer.body.error.message).toMatch(/^INVALID_PASSKEY/);
      }),
      { numRuns: 25 },
    );
  });
});
