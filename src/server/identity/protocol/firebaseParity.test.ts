import { deleteApp, initializeApp, type FirebaseApp } from '@firebase/app';
import { createUserWithEmailAndPassword, fetchSignInMethodsForEmail, type Auth } from '@firebase/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAgainst } from '../../../../test/support/firebaseSdk.ts';
import { identityClient, protocolError, uniqueEmail } from '../../../../test/support/identityTestClient.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';

/**
 * Issue 35's Firebase parity findings, from a side-by-side run against the Firebase Auth
 * emulator: createAuthUri as a project with email enumeration protection answers it, the
 * MISSING_* codes for absent fields, and USER_NOT_FOUND for a deleted account's refresh.
 */
describe.each(contractDatabases())('Firebase parity (issue 35) on $dialect', (dialectCase) => {
  let server: TestApp;
  let firebaseApp: FirebaseApp;
  let auth: Auth;
  let client: ReturnType<typeof identityClient>;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { RATE_LIMIT_SIGNUP_PER_IP: '100000' });
    firebaseApp = initializeApp({ apiKey: 'test-key', projectId: 'inkwell' }, `parity-${dialectCase.dialect}`);
    auth = authAgainst(firebaseApp, server.url);
    client = identityClient(server.url);
  });
  afterAll(async () => {
    await deleteApp(firebaseApp);
    await server.close();
  });

  it("answers the SDK's fetchSignInMethodsForEmail with [] for a registered address and an unknown one alike", async () => {
    const email = uniqueEmail('methods');
    await createUserWithEmailAndPassword(auth, email, 'methods password');
    expect(await fetchSignInMethodsForEmail(auth, email)).toEqual([]);
    expect(await fetchSignInMethodsForEmail(auth, uniqueEmail('nobody'))).toEqual([]);
  });

  it('answers accounts:createAuthUri with {kind, sessionId} only, the same for any address', async () => {
    const registered = uniqueEmail('registered');
    await client.signUp(registered, 'registered password');
    const answers = [];
    for (const identifier of [registered, uniqueEmail('unknown')]) {
      const answer = await client.call('/v1/accounts:createAuthUri', { identifier, continueUri: 'http://localhost/' });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual(['kind', 'sessionId']);
      expect(answer.body.kind).toBe('identitytoolkit#CreateAuthUriResponse');
      expect(answer.body.sessionId).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      answers.push(answer.body.sessionId);
    }
    expect(answers[0]).not.toBe(answers[1]);
    const refusals: [unknown, string][] = [
      [{ continueUri: 'http://localhost/' }, 'MISSING_IDENTIFIER'],
      [{ identifier: 'not an address', continueUri: 'http://localhost/' }, 'INVALID_IDENTIFIER'],
      [{ identifier: registered }, 'MISSING_CONTINUE_URI'],
      [{ identifier: registered, continueUri: 'not a uri' }, 'INVALID_CONTINUE_URI'],
    ];
    for (const [body, code] of refusals) {
      const answer = await client.call('/v1/accounts:createAuthUri', body);
      expect(answer.body, JSON.stringify(body)).toEqual(protocolError(code));
    }
  });

  it('answers an absent field with its MISSING_* code, as Firebase does', async () => {
    const email = uniqueEmail('missing');
    const signedUp = await client.signUp(email, 'missing password');
    const idToken = signedUp.body.idToken as string;
    const cases: [string, unknown, string][] = [
      ['/v1/accounts:lookup', {}, 'MISSING_ID_TOKEN'],
      ['/v1/accounts:delete', {}, 'MISSING_ID_TOKEN'],
      ['/v1/accounts:delete', { idToken: '' }, 'MISSING_ID_TOKEN'],
      ['/v1/accounts:sendOobCode', { requestType: 'VERIFY_EMAIL' }, 'MISSING_ID_TOKEN'],
      ['/v1/accounts:resetPassword', {}, 'MISSING_OOB_CODE'],
      ['/v1/accounts:resetPassword', { newPassword: 'another password' }, 'MISSING_OOB_CODE'],
      ['/v1/token', { refresh_token: 'x' }, 'MISSING_GRANT_TYPE'],
      ['/v1/accounts:sendOobCode', { requestType: 'VERIFY_AND_CHANGE_EMAIL', idToken }, 'MISSING_NEW_EMAIL'],
      ['/v1/accounts:update', {}, 'INVALID_REQ_TYPE : Unsupported request parameters.'],
      ['/v1/accounts:update', { displayName: 'No token' }, 'INVALID_REQ_TYPE : Unsupported request parameters.'],
      // Present but wrong keeps the INVALID_* code.
      ['/v1/accounts:lookup', { idToken: 'nope' }, 'INVALID_ID_TOKEN'],
      ['/v1/token', { grant_type: 'password', refresh_token: 'x' }, 'INVALID_GRANT_TYPE'],
      ['/v1/accounts:resetPassword', { oobCode: 'nope' }, 'INVALID_OOB_CODE'],
      ['/v1/accounts:sendOobCode', { requestType: 'VERIFY_AND_CHANGE_EMAIL', idToken, newEmail: 'x' }, 'INVALID_EMAIL'],
    ];
    for (const [path, body, message] of cases) {
      const answer = await client.call(path, body);
      expect([path, JSON.stringify(body), answer.status, answer.body.error?.message]).toEqual([
        path,
        JSON.stringify(body),
        400,
        message,
      ]);
    }
  });

  it("answers a deleted account's refresh with USER_NOT_FOUND", async () => {
    const signedUp = await client.signUp(uniqueEmail('deleted'), 'deleted password');
    const { idToken, refreshToken } = signedUp.body as { idToken: string; refreshToken: string };
    expect((await client.call('/v1/accounts:delete', { idToken })).status).toBe(200);
    const refreshed = await client.call('/v1/token', { grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body).toEqual(protocolError('USER_NOT_FOUND'));
  });
});
