import { deleteApp, initializeApp, type FirebaseApp } from '@firebase/app';
import {
  applyActionCode,
  checkActionCode,
  confirmPasswordReset,
  createUserWithEmailAndPassword,
  deleteUser,
  EmailAuthProvider,
  reauthenticateWithCredential,
  reload,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
  updateEmail,
  updatePassword,
  updateProfile,
  validatePassword,
  verifyBeforeUpdateEmail,
  verifyPasswordResetCode,
  type Auth,
} from '@firebase/auth';
import { PassThrough } from 'node:stream';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { uniqueEmail } from '../../../../test/support/identityTestClient.ts';
import { authAgainst } from '../../../../test/support/firebaseSdk.ts';

/** The error code a Firebase SDK call fails with. */
async function errorCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

function codeFrom(text: string): string {
  const match = /\/reset-password\?oobCode=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error('no reset link in the email');
  return match[1]!;
}

/** The action code of an /action link in an email. */
function actionCodeFrom(text: string, mode: string): string {
  const match = new RegExp(`/action\\?mode=${mode}&oobCode=([A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no ${mode} link in the email`);
  return match[1]!;
}

describe.each(contractDatabases())('the official Firebase Auth SDK against the server on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let firebaseApp: FirebaseApp;
  let auth: Auth;
  let clockOffset = 0;
  const logLines: string[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString().split('\n').filter(Boolean)));
    server = await startTestApp(
      dialectCase,
      { SMTP_URL: sink.url, LOG_LEVEL: 'info' },
      { clock: () => Date.now() + clockOffset, logStream },
    );
    firebaseApp = initializeApp({ apiKey: 'test-key', projectId: 'inkwell' }, `inkwell-${dialectCase.dialect}`);
    auth = authAgainst(firebaseApp, server.url);
  });
  afterAll(async () => {
    await deleteApp(firebaseApp);
    await server.close();
    await sink.close();
  });

  it('signs up, sets the profile, signs out and in, refreshes, reloads', async () => {
    const email = uniqueEmail();
    const created = await createUserWithEmailAndPassword(auth, email, 'secret-1');
    expect(created.user.email).toBe(email);
    expect(auth.currentUser?.uid).toBe(created.user.uid);

    await updateProfile(created.user, { displayName: 'Ada Lovelace', photoURL: 'https://example.com/ada.png' });
    expect(auth.currentUser?.displayName).toBe('Ada Lovelace');

    await signOut(auth);
    expect(auth.currentUser).toBeNull();

    const signedIn = await signInWithEmailAndPassword(auth, email.toUpperCase(), 'secret-1');
    expect(signedIn.user.uid).toBe(created.user.uid);
    expect(signedIn.user.displayName).toBe('Ada Lovelace');
    expect(signedIn.user.photoURL).toBe('https://example.com/ada.png');
    expect(signedIn.user.metadata.creationTime).toBeTruthy();

    const before = await signedIn.user.getIdToken();
    const forced = await signedIn.user.getIdToken(true);
    expect(forced).not.toBe(before);
    expect(decodeJwt(forced).name).toBe('Ada Lovelace');

    await reload(signedIn.user);
    expect(signedIn.user.email).toBe(email);
    expect(signedIn.user.emailVerified).toBe(false);
    expect(signedIn.user.providerData[0]?.providerId).toBe('password');
  });

  it('changes password and email, reauthenticates, deletes the account', async () => {
    const email = uniqueEmail();
    const { user } = await createUserWithEmailAndPassword(auth, email, 'secret-1');
    await updatePassword(user, 'secret-2');
    expect(await errorCode(signInWithEmailAndPassword(auth, email, 'secret-1'))).toBe('auth/invalid-credential');
    const { user: again } = await signInWithEmailAndPassword(auth, email, 'secret-2');

    const newEmail = uniqueEmail('moved');
    const before = sink.messages.length;
    await updateEmail(again, newEmail);
    expect(again.email).toBe(newEmail);
    const notice = await sink.waitForMail(email, { after: before, subject: /was changed/ });
    expect(notice.text).toContain(newEmail);

    // Six minutes later the sign-in is too old for sensitive changes, until the user signs in again.
    clockOffset = 6 * 60 * 1000;
    try {
      await again.getIdToken(true);
      expect(await errorCode(updatePassword(again, 'secret-3'))).toBe('auth/requires-recent-login');
      expect(await errorCode(deleteUser(again))).toBe('auth/requires-recent-login');
      await reauthenticateWithCredential(again, EmailAuthProvider.credential(newEmail, 'secret-2'));
      await updatePassword(again, 'secret-3');
      await deleteUser(again);
    } finally {
      clockOffset = 0;
    }
    expect(auth.currentUser).toBeNull();
    expect(await errorCode(signInWithEmailAndPassword(auth, newEmail, 'secret-3'))).toBe('auth/invalid-credential');
  });

  it('resets a forgotten password with the code from the email', async () => {
    const email = uniqueEmail();
    await createUserWithEmailAndPassword(auth, email, 'secret-1');
    await signOut(auth);
    const before = sink.messages.length;
    await sendPasswordResetEmail(auth, email);
    const code = codeFrom((await sink.waitForMail(email, { after: before, subject: /Reset your/ })).text);
    expect(await verifyPasswordResetCode(auth, code)).toBe(email);
    await confirmPasswordReset(auth, code, 'brand-new-secret');
    expect(await errorCode(confirmPasswordReset(auth, code, 'another-secret'))).toBe('auth/invalid-action-code');
    expect(await errorCode(verifyPasswordResetCode(auth, 'no-such-code'))).toBe('auth/invalid-action-code');
    const { user } = await signInWithEmailAndPassword(auth, email, 'brand-new-secret');
    expect(user.email).toBe(email);
    // Unknown emails succeed silently (no enumeration).
    await sendPasswordResetEmail(auth, uniqueEmail('nobody'));
    await signOut(auth);
  });

  it('verifies the email, and changes it only once the new address is verified', async () => {
    const email = uniqueEmail();
    let before = sink.messages.length;
    const { user } = await createUserWithEmailAndPassword(auth, email, 'secret-1');
    // The sign-up's own link, then one asked for.
    await sink.waitForMail(email, { after: before, subject: /Verify your/ });
    before = sink.messages.length;
    await sendEmailVerification(user);
    const code = actionCodeFrom(
      (await sink.waitForMail(email, { after: before, subject: /Verify your/ })).text,
      'verifyEmail',
    );
    const info = await checkActionCode(auth, code);
    expect(info.operation).toBe('VERIFY_EMAIL');
    expect(info.data.email).toBe(email);
    await applyActionCode(auth, code);
    // Opened again once the address is verified, it succeeds again and changes nothing (decision 0501).
    await applyActionCode(auth, code);
    await reload(user);
    expect(user.emailVerified).toBe(true);

    const newEmail = uniqueEmail('verified-move');
    before = sink.messages.length;
    await verifyBeforeUpdateEmail(user, newEmail);
    await reload(user);
    expect(user.email).toBe(email);
    const change = actionCodeFrom(
      (await sink.waitForMail(newEmail, { after: before, subject: /Confirm your new/ })).text,
      'verifyAndChangeEmail',
    );
    const changeInfo = await checkActionCode(auth, change);
    expect(changeInfo.operation).toBe('VERIFY_AND_CHANGE_EMAIL');
    expect(changeInfo.data).toMatchObject({ email: newEmail, previousEmail: email });
    await applyActionCode(auth, change);

    // The old address is told, with a link that undoes the change; checkActionCode reads it.
    const notice = await sink.waitForMail(email, { after: before, subject: /was changed/ });
    const recover = actionCodeFrom(notice.text, 'recoverEmail');
    const recoverInfo = await checkActionCode(auth, recover);
    expect(recoverInfo.operation).toBe('RECOVER_EMAIL');
    expect(recoverInfo.data).toMatchObject({ email, previousEmail: newEmail });

    // The change ended the session: sign in at the new address.
    const { user: moved } = await signInWithEmailAndPassword(auth, newEmail, 'secret-1');
    expect(moved.emailVerified).toBe(true);
    await applyActionCode(auth, recover);
    expect(await errorCode(signInWithEmailAndPassword(auth, newEmail, 'secret-1'))).toBe('auth/invalid-credential');
    expect((await signInWithEmailAndPassword(auth, email, 'secret-1')).user.email).toBe(email);
    await signOut(auth);
  });

  it('maps the server errors to the SDK error codes and validates passwords by policy', async () => {
    const email = uniqueEmail();
    await createUserWithEmailAndPassword(auth, email, 'secret-1');
    await signOut(auth);
    expect(await errorCode(createUserWithEmailAndPassword(auth, email, 'secret-1'))).toBe('auth/email-already-in-use');
    expect(await errorCode(createUserWithEmailAndPassword(auth, uniqueEmail(), '123'))).toBe('auth/weak-password');
    expect(await errorCode(signInWithEmailAndPassword(auth, email, 'wrong-one'))).toBe('auth/invalid-credential');
    expect(await errorCode(signInWithEmailAndPassword(auth, uniqueEmail('nobody'), 'secret-1'))).toBe(
      'auth/invalid-credential',
    );

    const weak = await validatePassword(auth, '123');
    expect(weak.isValid).toBe(false);
    expect(weak.meetsMinPasswordLength).toBe(false);
    expect(weak.passwordPolicy.customStrengthOptions.minPasswordLength).toBe(6);
    expect((await validatePassword(auth, 'long-enough')).isValid).toBe(true);
  });

  it('was only ever asked for endpoints the server has', () => {
    type Entry = { reqId?: string; req?: { method: string; url: string }; res?: { statusCode: number } };
    const entries = logLines.map((line) => JSON.parse(line) as Entry);
    const urls = new Map(entries.filter((e) => e.req).map((e) => [e.reqId, `${e.req!.method} ${e.req!.url}`]));
    const completed = entries
      .filter((e) => e.res)
      .map((e) => ({ request: urls.get(e.reqId), status: e.res!.statusCode }));
    expect(completed.length).toBeGreaterThan(10);
    expect(completed.filter((c) => c.status === 404 || c.status >= 500)).toEqual([]);
    const endpoints = new Set(completed.map((c) => c.request?.replace(/\?.*$/, '')));
    expect([...endpoints].sort()).toEqual([
      'GET /identity/v2/passwordPolicy',
      'POST /identity/v1/accounts:delete',
      'POST /identity/v1/accounts:lookup',
      'POST /identity/v1/accounts:resetPassword',
      'POST /identity/v1/accounts:sendOobCode',
      'POST /identity/v1/accounts:signInWithPassword',
      'POST /identity/v1/accounts:signUp',
      'POST /identity/v1/accounts:update',
      'POST /identity/v1/token',
    ]);
  });
});
