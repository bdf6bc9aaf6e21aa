import { deleteApp, initializeApp, type FirebaseApp } from '@firebase/app';
import {
  createUserWithEmailAndPassword,
  getMultiFactorResolver,
  multiFactor,
  signInWithEmailAndPassword,
  signOut,
  TotpMultiFactorGenerator,
  type Auth,
  type MultiFactorError,
} from '@firebase/auth';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient, uniqueEmail } from '../../../../test/support/identityTestClient.ts';
import { startSmtpSink, type SmtpSink } from '../../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { signUpVerified, totpCode } from '../../../../test/support/twoStepTestSupport.ts';
import { authAgainst } from '../../../../test/support/firebaseSdk.ts';

async function rejection(promise: Promise<unknown>): Promise<{ code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string };
  }
  throw new Error('expected the call to fail');
}

describe.each(contractDatabases())('two-step sign-in with the official Firebase SDK on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let firebaseApp: FirebaseApp;
  let auth: Auth;
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, { SMTP_URL: sink.url }, { clock: now });
    firebaseApp = initializeApp({ apiKey: 'test-key', projectId: 'inkwell' }, `two-step-${dialectCase.dialect}`);
    auth = authAgainst(firebaseApp, server.url);
  });
  afterAll(async () => {
    await deleteApp(firebaseApp);
    await server.close();
    await sink.close();
  });

  /** An account with two-step on, enrolled through the SDK; answers its secret and recovery codes. */
  async function enrolledAccount() {
    const email = uniqueEmail('two-step');
    await signUpVerified(identityClient(server.url), sink, email, 'secret-1');
    const { user } = await signInWithEmailAndPassword(auth, email, 'secret-1');
    const session = await multiFactor(user).getSession();
    const secret = await TotpMultiFactorGenerator.generateSecret(session);
    expect(secret.codeLength).toBe(6);
    expect(secret.codeIntervalSeconds).toBe(30);
    expect(secret.hashingAlgorithm).toBe('SHA1');
    // 160 bits in base32.
    expect(secret.secretKey).toMatch(/^[A-Z2-7]{32}$/);
    expect(secret.generateQrCodeUrl(email, 'Inkwell')).toContain(`secret=${secret.secretKey}`);
    const assertion = TotpMultiFactorGenerator.assertionForEnrollment(secret, totpCode(secret.secretKey, now()));
    await multiFactor(user).enroll(assertion, 'Phone');
    return { email, user, secret: secret.secretKey };
  }

  /** A password sign-in that the SDK reports as needing the second step; answers its resolver. */
  async function resolverFor(email: string) {
    const error = await rejection(signInWithEmailAndPassword(auth, email, 'secret-1'));
    expect(error.code).toBe('auth/multi-factor-auth-required');
    return getMultiFactorResolver(auth, error as MultiFactorError);
  }

  it('enrolls an authenticator app, then signs in with the resolver and a code', async () => {
    const { email, user, secret } = await enrolledAccount();
    expect(multiFactor(user).enrolledFactors).toHaveLength(1);
    const [factor] = multiFactor(user).enrolledFactors;
    expect(factor).toMatchObject({ factorId: 'totp', displayName: 'Phone' });
    await signOut(auth);

    const resolver = await resolverFor(email);
    expect(resolver.hints).toHaveLength(1);
    expect(resolver.hints[0]).toMatchObject({ factorId: 'totp', uid: factor!.uid, displayName: 'Phone' });
    // The enrolling code is used; the next step's code signs in.
    clockOffset += 30_000;
    const credential = await resolver.resolveSignIn(
      TotpMultiFactorGenerator.assertionForSignIn(resolver.hints[0]!.uid, totpCode(secret, now())),
    );
    expect(credential.user.email).toBe(email);
    expect(auth.currentUser?.uid).toBe(user.uid);
    const claims = decodeJwt(await credential.user.getIdToken());
    expect(claims.firebase).toMatchObject({ sign_in_provider: 'password', sign_in_second_factor: 'totp' });
    // A refreshed token still says how the sign-in was made.
    const refreshed = decodeJwt(await credential.user.getIdToken(true));
    expect(refreshed.firebase).toMatchObject({ sign_in_second_factor: 'totp' });
    expect((await credential.user.getIdTokenResult()).signInSecondFactor).toBe('totp');
    await signOut(auth);
  });

  it('names the second factor used in the ID tokens: firebase.second_factor_identifier is its uid (issue 35)', async () => {
    const { email, user, secret } = await enrolledAccount();
    const [factor] = multiFactor(user).enrolledFactors;
    // The enrolling session's tokens name the factor just enrolled.
    expect(decodeJwt(await user.getIdToken(true)).firebase).toMatchObject({
      sign_in_second_factor: 'totp',
      second_factor_identifier: factor!.uid,
    });
    await signOut(auth);
    const resolver = await resolverFor(email);
    clockOffset += 30_000;
    const credential = await resolver.resolveSignIn(
      TotpMultiFactorGenerator.assertionForSignIn(resolver.hints[0]!.uid, totpCode(secret, now())),
    );
    const claims = decodeJwt(await credential.user.getIdToken());
    expect(claims.firebase).toMatchObject({ sign_in_second_factor: 'totp', second_factor_identifier: factor!.uid });
    // Kept by a refresh, as the rest of how the sign-in was made.
    const refreshed = decodeJwt(await credential.user.getIdToken(true));
    expect(refreshed.firebase).toMatchObject({ second_factor_identifier: factor!.uid });
    await signOut(auth);
    // A sign-in without a second step has none.
    const plain = await createUserWithEmailAndPassword(auth, `plain-${email}`, 'secret-1');
    expect(decodeJwt(await plain.user.getIdToken()).firebase).not.toHaveProperty('second_factor_identifier');
    await signOut(auth);
  });

  it('refuses a wrong code with auth/invalid-verification-code and accepts a recovery code once', async () => {
    // Enrolled on the wire: the finalize answer's recovery codes are Inkwell's, and the SDK drops them.
    const email = uniqueEmail('recovery');
    const client = identityClient(server.url);
    const { idToken } = await signUpVerified(client, sink, email, 'secret-1');
    const started = await client.call('/v2/accounts/mfaEnrollment:start', { idToken, totpEnrollmentInfo: {} });
    const secret = started.body.totpSessionInfo.sharedSecretKey as string;
    const finalized = await client.call('/v2/accounts/mfaEnrollment:finalize', {
      idToken,
      totpVerificationInfo: {
        sessionInfo: started.body.totpSessionInfo.sessionInfo,
        verificationCode: totpCode(secret, now()),
      },
    });
    const recoveryCodes = finalized.body.recoveryCodes as string[];
    expect(recoveryCodes).toHaveLength(10);
    const resolver = await resolverFor(email);
    const uid = resolver.hints[0]!.uid;
    const wrong = await rejection(
      resolver.resolveSignIn(TotpMultiFactorGenerator.assertionForSignIn(uid, totpCode(secret, now() - 600_000))),
    );
    expect(wrong.code).toBe('auth/invalid-verification-code');
    const signedIn = await resolver.resolveSignIn(TotpMultiFactorGenerator.assertionForSignIn(uid, recoveryCodes[0]!));
    expect(signedIn.user.email).toBe(email);
    await signOut(auth);

    const again = await resolverFor(email);
    const reused = await rejection(
      again.resolveSignIn(TotpMultiFactorGenerator.assertionForSignIn(uid, recoveryCodes[0]!)),
    );
    expect(reused.code).toBe('auth/invalid-verification-code');
    const other = await again.resolveSignIn(TotpMultiFactorGenerator.assertionForSignIn(uid, recoveryCodes[1]!));
    expect(other.user.email).toBe(email);
    await signOut(auth);
  });

  it('unenrolls: the next password sign-in needs no second step', async () => {
    const { email, user } = await enrolledAccount();
    const [factor] = multiFactor(user).enrolledFactors;
    await multiFactor(user).unenroll(factor!);
    expect(multiFactor(user).enrolledFactors).toHaveLength(0);
    await signOut(auth);
    const { user: again } = await signInWithEmailAndPassword(auth, email, 'secret-1');
    expect(multiFactor(again).enrolledFactors).toHaveLength(0);
    expect(decodeJwt(await again.getIdToken()).firebase).not.toHaveProperty('sign_in_second_factor');
    await signOut(auth);
  });
});
