import { createHash, randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient, protocolError, uniqueEmail } from '../../../../test/support/identityTestClient.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { markAddressVerified } from '../../../../test/support/verifiedAccounts.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../../../../test/support/testOidcProvider.ts';

const PUBLIC_URL = 'http://localhost:3999';
const PROVIDER = 'oidc.test';
/** The same test provider configured a second time, as another provider id. */
const OTHER = 'oidc.other';
const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

describe.each(contractDatabases())('accounts:signInWithIdp on $dialect', (dialectCase) => {
  let provider: TestOidcProvider;
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;
  let offset = 0;

  beforeAll(async () => {
    provider = await startTestOidcProvider({ redirectUris: [] });
    server = await startTestApp(
      dialectCase,
      { PUBLIC_URL, RECENT_SIGN_IN_SECONDS: '300', ...provider.env('TEST', 'Test ID'), ...provider.env('OTHER') },
      { clock: () => Date.now() + offset, providerKeyRefreshCooldownMs: 1000 },
    );
    client = identityClient(server.url);
  });
  afterAll(async () => {
    await server.close();
    await provider.close();
  });

  const person = (claims: Record<string, unknown> = {}) => ({
    sub: randomUUID(),
    email: uniqueEmail('idp'),
    email_verified: true,
    ...claims,
  });

  const signInWithIdp = async (
    providerToken: string,
    options: { providerId?: string; rawNonce?: string; idToken?: string; autoCreate?: boolean } = {},
    headers: Record<string, string> = {},
  ) => {
    const postBody = new URLSearchParams({ id_token: providerToken, providerId: options.providerId ?? PROVIDER });
    if (options.rawNonce !== undefined) postBody.set('nonce', options.rawNonce);
    return client.call(
      '/v1/accounts:signInWithIdp',
      {
        requestUri: 'http://localhost',
        postBody: postBody.toString(),
        returnSecureToken: true,
        returnIdpCredential: true,
        ...(options.idToken !== undefined ? { idToken: options.idToken } : {}),
        ...(options.autoCreate !== undefined ? { autoCreate: options.autoCreate } : {}),
      },
      { headers },
    );
  };

  it('signs a new person up (rule 4): profile from the provider, token names the provider and the identity', async () => {
    const claims = person({ name: 'Grace Hopper', picture: 'https://images.example/grace.png' });
    const providerToken = await provider.idToken(claims);
    const answer = await signInWithIdp(providerToken);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      kind: 'identitytoolkit#VerifyAssertionResponse',
      providerId: PROVIDER,
      federatedId: claims.sub,
      email: claims.email,
      emailVerified: true,
      displayName: 'Grace Hopper',
      photoUrl: 'https://images.example/grace.png',
      isNewUser: true,
      expiresIn: '3600',
      oauthIdToken: providerToken,
    });
    expect(answer.body.refreshToken).toEqual(expect.any(String));
    expect(answer.body.needConfirmation).toBeUndefined();
    expect(JSON.parse(answer.body.rawUserInfo)).toMatchObject({ sub: claims.sub, email: claims.email });
    const token = decodeJwt(answer.body.idToken);
    expect(token.sub).toBe(answer.body.localId);
    expect(token.firebase).toEqual({
      identities: { email: [claims.email], [PROVIDER]: [claims.sub] },
      sign_in_provider: PROVIDER,
    });
    const lookup = await client.lookup(answer.body.idToken);
    expect(lookup.body.users[0]).toMatchObject({ localId: answer.body.localId, emailVerified: true });
    // No password: the provider is the only way in.
    expect(lookup.body.users[0].providerUserInfo).toEqual([
      {
        providerId: PROVIDER,
        rawId: claims.sub,
        federatedId: claims.sub,
        email: claims.email,
        displayName: 'Grace Hopper',
        photoUrl: 'https://images.example/grace.png',
      },
    ]);
    // The session is real: it refreshes with the same provider.
    const refreshed = await client.refresh(answer.body.refreshToken);
    expect(decodeJwt(refreshed.body.id_token).firebase).toMatchObject({ sign_in_provider: PROVIDER });
  });

  it('signs a linked identity in to its account (rule 1), whatever address the provider gives now', async () => {
    const claims = person();
    const first = await signInWithIdp(await provider.idToken(claims));
    const again = await signInWithIdp(await provider.idToken({ ...claims, email: uniqueEmail('changed') }));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ localId: first.body.localId, email: claims.email, isNewUser: false });
  });

  it('takes over an unverified account with the address the provider verified (rule 3): password, passkeys and sessions gone', async () => {
    const email = uniqueEmail('squatter');
    const signedUp = await client.signUp(email, 'squatters password');
    expect(signedUp.status).toBe(200);
    // Whoever signed up first cannot add a passkey to the unverified address (decision 0551).
    const started = await client.call('/v1/passkeys:startRegistration', { idToken: signedUp.body.idToken });
    expect(started.body).toEqual(protocolError('UNVERIFIED_EMAIL'));

    const claims = person({ email, email_verified: true });
    const answer = await signInWithIdp(await provider.idToken(claims));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ localId: signedUp.body.localId, emailVerified: true, isNewUser: false });
    expect((await client.refresh(signedUp.body.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await client.signIn(email, 'squatters password')).body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
    const passkeys = await client.call('/v1/passkeys:list', { idToken: answer.body.idToken });
    expect(passkeys.body.passkeys).toEqual([]);
    const lookup = await client.lookup(answer.body.idToken);
    expect(lookup.body.users[0].providerUserInfo.map((info: { providerId: string }) => info.providerId)).toEqual([
      PROVIDER,
    ]);
  });

  it('answers needConfirmation, and no session, when the account is verified or the provider does not verify the address (rule 3)', async () => {
    // An account whose address is verified (made through the provider).
    const owner = person();
    const made = await signInWithIdp(await provider.idToken(owner));
    const viaOther = await signInWithIdp(await provider.idToken(person({ email: owner.email })), { providerId: OTHER });
    expect(viaOther.status).toBe(200);
    expect(viaOther.body).toMatchObject({ needConfirmation: true, email: owner.email, providerId: OTHER });
    expect(viaOther.body.idToken).toBeUndefined();
    expect(viaOther.body.refreshToken).toBeUndefined();

    // An unverified password account, and a provider that does not vouch for the address.
    const email = uniqueEmail('unvouched');
    const signedUp = await client.signUp(email, 'a fine password');
    const unvouched = await signInWithIdp(await provider.idToken(person({ email, email_verified: false })));
    expect(unvouched.body).toMatchObject({ needConfirmation: true, email });
    expect(unvouched.body.idToken).toBeUndefined();
    // Nothing was taken: the password and the session still work.
    expect((await client.signIn(email, 'a fine password')).status).toBe(200);
    expect((await client.refresh(signedUp.body.refreshToken)).status).toBe(200);
    expect(made.body.localId).not.toBe(signedUp.body.localId);
  });

  it('links to the signed-in account with idToken (rule 2), refuses an identity linked elsewhere and a stale sign-in', async () => {
    const email = uniqueEmail('linker');
    const signedUp = await client.signUp(email, 'linker password');
    const claims = person({ email: uniqueEmail('elsewhere') });
    // Not before the address is verified: a link added by whoever registered it first would outlive a reset.
    const early = await signInWithIdp(await provider.idToken(claims), { idToken: signedUp.body.idToken });
    expect(early.body).toEqual(protocolError('UNVERIFIED_EMAIL'));
    await markAddressVerified(server, signedUp.body.localId);
    const linked = await signInWithIdp(await provider.idToken(claims), { idToken: signedUp.body.idToken });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ localId: signedUp.body.localId, email, isNewUser: false });
    expect(decodeJwt(linked.body.idToken).firebase).toMatchObject({
      identities: { email: [email], [PROVIDER]: [claims.sub] },
    });
    const lookup = await client.lookup(linked.body.idToken);
    expect(lookup.body.users[0].providerUserInfo.map((info: { providerId: string }) => info.providerId)).toEqual([
      'password',
      PROVIDER,
    ]);
    // The provider alone now signs in to that account.
    const viaProvider = await signInWithIdp(await provider.idToken(claims));
    expect(viaProvider.body.localId).toBe(signedUp.body.localId);

    const someoneElse = await client.signUp(uniqueEmail('other'), 'other password');
    await markAddressVerified(server, someoneElse.body.localId);
    const taken = await signInWithIdp(await provider.idToken(claims), { idToken: someoneElse.body.idToken });
    expect(taken.body).toEqual(protocolError('FEDERATED_USER_ID_ALREADY_LINKED'));

    // A second identity of the same provider on one account.
    const second = await signInWithIdp(await provider.idToken(person()), { idToken: linked.body.idToken });
    expect(second.body).toEqual(protocolError('PROVIDER_ALREADY_LINKED'));

    offset = 301_000;
    try {
      const stale = await signInWithIdp(await provider.idToken(person()), {
        providerId: OTHER,
        idToken: someoneElse.body.idToken,
      });
      expect(stale.body).toEqual(protocolError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN'));
    } finally {
      offset = 0;
    }
  });

  it('re-authenticates without creating anyone (autoCreate false)', async () => {
    const stranger = await signInWithIdp(await provider.idToken(person()), { autoCreate: false });
    expect(stranger.body).toEqual(protocolError('USER_NOT_FOUND'));
    const claims = person();
    const made = await signInWithIdp(await provider.idToken(claims));
    const again = await signInWithIdp(await provider.idToken(claims), { autoCreate: false });
    expect(again.body.localId).toBe(made.body.localId);
  });

  it('refuses bad provider tokens with INVALID_IDP_RESPONSE and an unconfigured provider with OPERATION_NOT_ALLOWED', async () => {
    const refusedWith = async (token: string, options: Parameters<typeof signInWithIdp>[1] = {}) => {
      const answer = await signInWithIdp(token, options);
      expect(answer.status).toBe(400);
      return answer.body.error.message.split(' : ')[0];
    };
    const claims = person();
    expect(await refusedWith(await provider.idToken(claims, { key: 'stranger' }))).toBe('INVALID_IDP_RESPONSE');
    expect(await refusedWith(await provider.idToken({ ...claims, aud: 'someone-else' }))).toBe('INVALID_IDP_RESPONSE');
    expect(await refusedWith(await provider.idToken({ ...claims, iss: 'http://127.0.0.1:1' }))).toBe(
      'INVALID_IDP_RESPONSE',
    );
    const past = Math.floor(Date.now() / 1000) - 7200;
    expect(await refusedWith(await provider.idToken({ ...claims, iat: past, exp: past + 3600 }))).toBe(
      'INVALID_IDP_RESPONSE',
    );
    const nonced = await provider.idToken({ ...claims, nonce: sha256Hex('the raw nonce') });
    expect(await refusedWith(nonced, { rawNonce: 'another nonce' })).toBe('INVALID_IDP_RESPONSE');
    expect(await refusedWith('not.a.jwt')).toBe('INVALID_IDP_RESPONSE');
    expect(await refusedWith(await provider.idToken(claims), { providerId: 'oidc.nobody' })).toBe(
      'OPERATION_NOT_ALLOWED',
    );
    // None of those made an account; the right nonce signs in.
    const good = await signInWithIdp(nonced, { rawNonce: 'the raw nonce' });
    expect(good.body).toMatchObject({ isNewUser: true, email: claims.email });
  });

  it('fetches the provider keys again for an unknown kid, at most once per cooldown, and accepts a rotated key', async () => {
    const before = provider.jwksFetches();
    for (let i = 0; i < 5; i += 1) {
      const unknown = await signInWithIdp(await provider.idToken(person(), { kid: `unknown-${i}` }));
      expect(unknown.status).toBe(400);
    }
    // Five unknown kids inside one cooldown: at most one more fetch.
    expect(provider.jwksFetches() - before).toBeLessThanOrEqual(1);
    await provider.rotateKey();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const rotated = await signInWithIdp(await provider.idToken(person()));
    expect(rotated.status).toBe(200);
  });

  it('unlinks with deleteProvider, but never the last way to sign in', async () => {
    const claims = person();
    const made = await signInWithIdp(await provider.idToken(claims));
    const last = await client.update({ idToken: made.body.idToken, deleteProvider: [PROVIDER] });
    expect(last.body).toEqual(
      protocolError('LAST_SIGN_IN_METHOD : Add another way to sign in before removing this one.'),
    );
    const email = uniqueEmail('unlinker');
    const signedUp = await client.signUp(email, 'unlinker password');
    await markAddressVerified(server, signedUp.body.localId);
    const linked = await signInWithIdp(await provider.idToken(person()), { idToken: signedUp.body.idToken });
    const unlinked = await client.update({ idToken: linked.body.idToken, deleteProvider: [PROVIDER] });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.providerUserInfo.map((info: { providerId: string }) => info.providerId)).toEqual(['password']);
    expect(decodeJwt((await client.refresh(linked.body.refreshToken)).body.id_token).firebase).toMatchObject({
      identities: { email: [email] },
    });
    // The password is the last way in now.
    expect((await client.update({ idToken: linked.body.idToken, deleteProvider: ['password'] })).body).toEqual(
      protocolError('LAST_SIGN_IN_METHOD : Add another way to sign in before removing this one.'),
    );
  });

  it('in browser session mode, the refresh token goes to the HttpOnly cookie only', async () => {
    const answer = await signInWithIdp(await provider.idToken(person()), {}, { 'x-inkwell-session': 'cookie' });
    expect(answer.status).toBe(200);
    expect(answer.body.refreshToken).toBeUndefined();
    expect(answer.headers.get('set-cookie')).toMatch(/^inkwell_session=[^;]+;.*HttpOnly/);
  });
  it('refuses a subject or an address it cannot store with INVALID_IDP_RESPONSE, not a server fault (issue 35, finding 6)', async () => {
    const claimSets = [
      ...['a\u0000b', 'a\ud800b', 'a'.repeat(10_000)].map((sub) => person({ sub })),
      ...['a\u0000b@example.com', 'a\ud800b@example.com', `${'a'.repeat(10_000)}@example.com`].map((email) =>
        person({ email }),
      ),
    ];
    for (const claims of claimSets) {
      const answer = await signInWithIdp(await provider.idToken(claims));
      const what = `${JSON.stringify(claims).slice(0, 80)} ${answer.text.slice(0, 200)}`;
      expect(answer.status, what).toBe(400);
      expect(answer.body.error.message, what).toMatch(/^INVALID_IDP_RESPONSE/);
    }
  });
});
