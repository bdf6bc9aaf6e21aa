import { createHash, randomUUID } from 'node:crypto';
import { deleteApp, initializeApp, type FirebaseApp } from '@firebase/app';
import {
  createUserWithEmailAndPassword,
  getAdditionalUserInfo,
  linkWithCredential,
  OAuthProvider,
  reauthenticateWithCredential,
  signInWithCredential,
  signOut,
  unlink,
  type Auth,
} from '@firebase/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../../test/support/identityTestClient.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { markAddressVerified } from '../../../../test/support/verifiedAccounts.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../../../../test/support/testOidcProvider.ts';
import { authAgainst } from '../../../../test/support/firebaseSdk.ts';

const PROVIDER = 'oidc.test';

async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe.each(contractDatabases())('the Firebase SDK signs in with an OpenID provider on $dialect', (dialectCase) => {
  let provider: TestOidcProvider;
  let server: TestApp;
  let firebaseApp: FirebaseApp;
  let auth: Auth;

  beforeAll(async () => {
    provider = await startTestOidcProvider({ redirectUris: [] });
    server = await startTestApp(dialectCase, provider.env('TEST'));
    firebaseApp = initializeApp({ apiKey: 'test-key', projectId: 'inkwell' }, `inkwell-oidc-${dialectCase.dialect}`);
    auth = authAgainst(firebaseApp, server.url);
  });
  afterAll(async () => {
    await deleteApp(firebaseApp);
    await server.close();
    await provider.close();
  });

  /** A provider ID token bound to a raw nonce, as a client holding Google's answer has one. */
  async function credential(claims: Record<string, unknown>) {
    const rawNonce = randomUUID();
    const idToken = await provider.idToken({ ...claims, nonce: createHash('sha256').update(rawNonce).digest('hex') });
    return new OAuthProvider(PROVIDER).credential({ idToken, rawNonce });
  }

  it('signInWithCredential signs a new person in, then the same person again', async () => {
    const claims = { sub: randomUUID(), email: uniqueEmail('sdk'), email_verified: true, name: 'Sdk Person' };
    const first = await signInWithCredential(auth, await credential(claims));
    expect(first.user.email).toBe(claims.email);
    expect(first.user.displayName).toBe('Sdk Person');
    expect(first.user.emailVerified).toBe(true);
    expect(first.providerId).toBe(PROVIDER);
    expect(getAdditionalUserInfo(first)).toMatchObject({ isNewUser: true, providerId: PROVIDER });
    expect(first.user.providerData.map((info) => [info.providerId, info.uid])).toEqual([[PROVIDER, claims.sub]]);
    const token = await first.user.getIdTokenResult();
    expect(token.signInProvider).toBe(PROVIDER);
    await signOut(auth);

    const again = await signInWithCredential(auth, await credential(claims));
    expect(again.user.uid).toBe(first.user.uid);
    expect(getAdditionalUserInfo(again)?.isNewUser).toBe(false);
    await signOut(auth);
  });

  it('reports an existing account as auth/account-exists-with-different-credential', async () => {
    const email = uniqueEmail('sdk-holder');
    await createUserWithEmailAndPassword(auth, email, 'holder password');
    await signOut(auth);
    const code = await errorCode(
      signInWithCredential(auth, await credential({ sub: randomUUID(), email, email_verified: false })),
    );
    expect(code).toBe('auth/account-exists-with-different-credential');
    expect(auth.currentUser).toBeNull();
  });

  it('links with linkWithCredential, re-authenticates with reauthenticateWithCredential, and unlinks', async () => {
    const email = uniqueEmail('sdk-linker');
    const { user } = await createUserWithEmailAndPassword(auth, email, 'linker password');
    const claims = { sub: randomUUID(), email: uniqueEmail('at-provider'), email_verified: true };
    // Linking needs a verified address (decision 0551): refused, then allowed once verified.
    expect(await errorCode(linkWithCredential(user, await credential(claims)))).toBe('auth/unverified-email');
    await markAddressVerified(server, user.uid);
    const linked = await linkWithCredential(user, await credential(claims));
    expect(linked.user.uid).toBe(user.uid);
    expect(linked.user.providerData.map((info) => info.providerId).sort()).toEqual(['oidc.test', 'password']);

    const reauthenticated = await reauthenticateWithCredential(user, await credential(claims));
    expect(reauthenticated.user.uid).toBe(user.uid);
    // Someone else's provider identity is not this user.
    const stranger = { sub: randomUUID(), email: uniqueEmail('stranger'), email_verified: true };
    await signOut(auth);
    const other = await signInWithCredential(auth, await credential(stranger));
    await signOut(auth);
    const { user: again } = await createUserWithEmailAndPassword(auth, uniqueEmail('sdk-second'), 'second password');
    expect(await errorCode(reauthenticateWithCredential(again, await credential(stranger)))).toBe('auth/user-mismatch');
    // An identity linked to another account cannot be linked here.
    expect(await errorCode(linkWithCredential(again, await credential(stranger)))).toBe(
      'auth/credential-already-in-use',
    );
    expect(other.user.uid).not.toBe(again.uid);
    await signOut(auth);

    const { user: relinked } = await signInWithCredential(auth, await credential(claims));
    expect(relinked.uid).toBe(user.uid);
    const unlinked = await unlink(relinked, PROVIDER);
    expect(unlinked.providerData.map((info) => info.providerId)).toEqual(['password']);
    await signOut(auth);
  });
});
