import { afterEach, describe, expect, it } from 'vitest';
import { AuthSession } from './authSession.ts';
import { AuthError } from './errorCodes.ts';
import { createIdentityClient } from './identityClient.ts';
import { SecondStepNeeded } from './secondStep.ts';
import { createFakeIdentityFetch, errorAnswer, fakeIdToken } from '../../../test/support/fakeIdentityFetch.ts';
import { accountSessionOf } from './accountSession.ts';

const uid = 'user-1';
const email = 'ada@example.com';
const pendingAnswer = {
  kind: 'identitytoolkit#VerifyPasswordResponse',
  localId: uid,
  email,
  displayName: '',
  registered: true,
  mfaPendingCredential: 'pending-1',
  mfaInfo: [{ mfaEnrollmentId: 'factor-1', enrolledAt: '2026-01-01T00:00:00.000Z', totpInfo: {} }],
};

describe('AuthSession with two-step verification', () => {
  let session: AuthSession | undefined;
  afterEach(() => session?.dispose());

  it('holds a right password at the second step, then signs in with the code', async () => {
    const fake = createFakeIdentityFetch({
      'v1/accounts:signInWithPassword': () => ({ status: 200, body: pendingAnswer }),
      'v2/accounts/mfaSignIn:finalize': (body) =>
        (body as { totpVerificationInfo: { verificationCode: string } }).totpVerificationInfo.verificationCode ===
        '123456'
          ? {
              status: 200,
              body: { localId: uid, email, displayName: 'Ada', idToken: fakeIdToken(uid), expiresIn: '3600' },
            }
          : errorAnswer('INVALID_CODE'),
    });
    session = new AuthSession({ client: createIdentityClient({ fetch: fake.fetch, timeoutMs: 30_000 }) });

    const held = await accountSessionOf(session)
      .signIn(email, 'secret-1')
      .catch((error: unknown) => error);
    expect(held).toBeInstanceOf(SecondStepNeeded);
    expect(session.state.status).not.toBe('signedIn');
    const pending = held as SecondStepNeeded;
    expect(pending).toMatchObject({ pendingCredential: 'pending-1', enrollmentId: 'factor-1', uid });

    const wrong = await accountSessionOf(session)
      .finishSecondStep(pending, '000000')
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(AuthError);
    expect((wrong as AuthError).code).toBe('invalid-verification-code');

    const user = await accountSessionOf(session).finishSecondStep(pending, '123456');
    expect(user).toEqual({ uid, email, displayName: 'Ada' });
    expect(session.state.status).toBe('signedIn');
    const finalize = fake.calls.find((call) => call.path === 'v2/accounts/mfaSignIn:finalize');
    expect(finalize?.body).toEqual({
      mfaPendingCredential: 'pending-1',
      mfaEnrollmentId: 'factor-1',
      totpVerificationInfo: { verificationCode: '000000' },
    });
  });
});
