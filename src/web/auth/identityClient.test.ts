import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REQUEST_TIMEOUT_DESKTOP_MS, REQUEST_TIMEOUT_MOBILE_MS, requestTimeoutFor } from './authTiming.ts';
import { AuthError } from './errorCodes.ts';
import { accountCalls } from './accountCalls.ts';
import { createIdentityClient } from './identityClient.ts';
import { createFakeIdentityFetch, errorAnswer } from '../../../test/support/fakeIdentityFetch.ts';

const desktopChrome =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const androidChrome =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const iPhoneSafari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

async function codeOf(pending: Promise<unknown>): Promise<string> {
  const error = await pending.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AuthError);
  return (error as AuthError).code;
}

describe('request timeout (30 s on a computer, 60 s on a phone)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is 30 s on a desktop browser and 60 s on a mobile one', () => {
    expect(REQUEST_TIMEOUT_DESKTOP_MS).toBe(30_000);
    expect(REQUEST_TIMEOUT_MOBILE_MS).toBe(60_000);
    expect(requestTimeoutFor({ userAgent: desktopChrome })).toBe(30_000);
    expect(requestTimeoutFor({ userAgent: androidChrome })).toBe(60_000);
    expect(requestTimeoutFor({ userAgent: iPhoneSafari })).toBe(60_000);
    // Client Hints win over the UA string when present.
    expect(requestTimeoutFor({ userAgent: androidChrome, userAgentData: { mobile: false } })).toBe(30_000);
    expect(requestTimeoutFor({ userAgent: desktopChrome, userAgentData: { mobile: true } })).toBe(60_000);
  });

  for (const [kind, timeoutMs] of [
    ['desktop', REQUEST_TIMEOUT_DESKTOP_MS],
    ['mobile', REQUEST_TIMEOUT_MOBILE_MS],
  ] as const) {
    it(`a ${kind} request that hangs fails with network-request-failed after exactly ${timeoutMs / 1000} s`, async () => {
      const fake = createFakeIdentityFetch({ 'v1/accounts:signInWithPassword': () => 'hang' });
      const client = createIdentityClient({ fetch: fake.fetch, timeoutMs });
      let settled: string | null = null;
      const pending = codeOf(accountCalls(client).signInWithPassword('a@example.com', 'secret1')).then(
        (code) => (settled = code),
      );

      await vi.advanceTimersByTimeAsync(timeoutMs - 1);
      expect(settled).toBeNull();
      expect(fake.calls[0]!.init.signal?.aborted).toBe(false);

      await vi.advanceTimersByTimeAsync(1);
      await pending;
      expect(settled).toBe('network-request-failed');
      expect(fake.calls[0]!.init.signal?.aborted).toBe(true);
    });
  }

  it('clears its timer once the answer arrives', async () => {
    const fake = createFakeIdentityFetch({
      'v1/accounts:sendOobCode': () => ({ status: 200, body: { email: 'a@b.co' } }),
    });
    const client = createIdentityClient({ fetch: fake.fetch, timeoutMs: REQUEST_TIMEOUT_DESKTOP_MS });
    await accountCalls(client).sendPasswordResetEmail('a@b.co');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('browser session mode on the wire', () => {
  it('every call sends X-Inkwell-Session: cookie and same-origin credentials, and never a refresh token', async () => {
    const fake = createFakeIdentityFetch({
      'v1/token': () => ({
        status: 200,
        body: { id_token: 't', access_token: 't', expires_in: '3600', token_type: 'Bearer', user_id: 'u1' },
      }),
      'v2/accounts:revokeToken': () => ({ status: 200, body: {} }),
      'v1/accounts:resetPassword': () => ({ status: 200, body: { email: 'a@b.co', requestType: 'PASSWORD_RESET' } }),
    });
    const client = createIdentityClient({ fetch: fake.fetch, timeoutMs: 30_000 });

    await client.refreshFromCookie();
    await client.revokeSession();
    expect(await accountCalls(client).verifyPasswordResetCode('code-1')).toBe('a@b.co');
    await accountCalls(client).confirmPasswordReset('code-1', 'new-secret');

    for (const call of fake.calls) {
      expect(call.init.method).toBe('POST');
      expect(call.init.credentials).toBe('same-origin');
      expect((call.init.headers as Record<string, string>)['X-Inkwell-Session']).toBe('cookie');
      expect(call.body).not.toHaveProperty('refresh_token');
      expect(call.body).not.toHaveProperty('token');
    }
    expect(fake.calls[0]).toMatchObject({ path: 'v1/token', body: { grant_type: 'refresh_token' } });
    expect((fake.calls[0]!.init.headers as Record<string, string>)['Content-Type']).toBe(
      'application/x-www-form-urlencoded',
    );
    expect(fake.calls[1]).toMatchObject({ path: 'v2/accounts:revokeToken', body: { tokenType: 'REFRESH_TOKEN' } });
    expect(fake.calls[2]!.body).toEqual({ oobCode: 'code-1' });
    expect(fake.calls[3]!.body).toEqual({ oobCode: 'code-1', newPassword: 'new-secret' });
  });
});

describe('server error codes map to client codes', () => {
  const cases: [string, string][] = [
    ['EMAIL_EXISTS', 'email-already-in-use'],
    ['INVALID_LOGIN_CREDENTIALS', 'invalid-credential'],
    ['TOO_MANY_ATTEMPTS_TRY_LATER', 'too-many-requests'],
    ['CREDENTIAL_TOO_OLD_LOGIN_AGAIN', 'requires-recent-login'],
    ['USER_DISABLED', 'user-disabled'],
    ['TOKEN_EXPIRED', 'user-token-expired'],
    ['USER_NOT_FOUND', 'user-token-expired'],
    ['WEAK_PASSWORD : Password should be at least 6 characters', 'weak-password'],
    ['INVALID_EMAIL', 'invalid-email'],
    ['MISSING_PASSWORD', 'missing-password'],
    ['MISSING_EMAIL', 'missing-email'],
    ['EXPIRED_OOB_CODE', 'expired-action-code'],
    ['INVALID_OOB_CODE', 'invalid-action-code'],
    ['INVALID_ID_TOKEN', 'invalid-user-token'],
    ['INVALID_REFRESH_TOKEN', 'invalid-refresh-token'],
    ['INVALID_CODE', 'invalid-verification-code'],
    ['INVALID_MFA_PENDING_CREDENTIAL', 'invalid-multi-factor-session'],
    ['SECOND_FACTOR_EXISTS', 'second-factor-already-in-use'],
    ['SESSION_EXPIRED', 'code-expired'],
    ['ADMIN_ONLY_OPERATION : SIGN_UP_BY_INVITATION', 'admin-restricted-operation'],
    ['SOMETHING_NEW', 'internal-error'],
    ['MISSING_REFRESH_TOKEN', 'internal-error'],
  ];

  for (const [serverMessage, clientCode] of cases) {
    it(`${serverMessage} → ${clientCode}`, async () => {
      const status = serverMessage.startsWith('TOO_MANY') ? 429 : 400;
      const fake = createFakeIdentityFetch({ 'v1/accounts:signUp': () => errorAnswer(serverMessage, status) });
      const client = createIdentityClient({ fetch: fake.fetch, timeoutMs: 30_000 });
      expect(await codeOf(accountCalls(client).signUp('a@example.com', 'secret1'))).toBe(clientCode);
    });
  }

  it('the session calls every page makes name their own codes (the account ones load with the account screens)', async () => {
    const fake = createFakeIdentityFetch({
      'v1/token': () => errorAnswer('USER_DISABLED', 400),
      'v1/accounts:lookup': () => errorAnswer('INVALID_ID_TOKEN', 400),
    });
    const client = createIdentityClient({ fetch: fake.fetch, timeoutMs: 30_000 });
    expect(await codeOf(client.refreshFromCookie())).toBe('user-disabled');
    expect(await codeOf(client.lookup('t'))).toBe('invalid-user-token');
  });

  it('an error body that is not JSON reads as network-request-failed (as the protocol says)', async () => {
    const fake = createFakeIdentityFetch({ 'v1/accounts:signUp': () => 'not-json' });
    const client = createIdentityClient({ fetch: fake.fetch, timeoutMs: 30_000 });
    expect(await codeOf(accountCalls(client).signUp('a@example.com', 'secret1'))).toBe('network-request-failed');
  });

  it('a refused connection reads as network-request-failed', async () => {
    const client = createIdentityClient({
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      timeoutMs: 30_000,
    });
    expect(await codeOf(accountCalls(client).signInWithPassword('a@example.com', 'secret1'))).toBe(
      'network-request-failed',
    );
  });
});
