import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthState } from './authTypes.ts';
import {
  PROACTIVE_REFRESH_LEAD_MS,
  RESTORE_WAIT_MS,
  REFRESH_RETRY_MAX_MS,
  REFRESH_RETRY_MIN_MS,
  TOKEN_EXPIRY_BUFFER_MS,
} from './authTiming.ts';
import { AUTH_CHANNEL_NAME, AuthSession } from './authSession.ts';
import { AuthError } from './errorCodes.ts';
import { createIdentityClient } from './identityClient.ts';
import { createFakeIdentityFetch, errorAnswer, fakeIdToken } from '../../../test/support/fakeIdentityFetch.ts';
import { accountSessionOf } from './accountSession.ts';

const uid = 'user-1';
const email = 'ada@example.com';

/** A fake /identity that knows one signed-in user and answers every session call successfully. */
function scriptedServer() {
  const signInAnswer = () => ({
    status: 200,
    body: { localId: uid, email, displayName: 'Ada', idToken: fakeIdToken(uid), expiresIn: '3600', registered: true },
  });
  return createFakeIdentityFetch({
    'v1/accounts:signInWithPassword': signInAnswer,
    'v1/accounts:signUp': () => ({ ...signInAnswer(), body: { ...signInAnswer().body, displayName: '' } }),
    'v1/token': () => ({
      status: 200,
      body: {
        id_token: fakeIdToken(uid),
        access_token: 'x',
        expires_in: '3600',
        token_type: 'Bearer',
        user_id: uid,
        project_id: 'inkwell',
      },
    }),
    'v1/accounts:lookup': () => ({ status: 200, body: { users: [{ localId: uid, email, displayName: 'Ada' }] } }),
    'v1/accounts:update': (body) => ({
      status: 200,
      body: { localId: uid, email, displayName: (body as { displayName?: string }).displayName ?? 'Ada' },
    }),
    'v2/accounts:revokeToken': () => ({ status: 200, body: {} }),
    'v1/accounts:delete': () => ({ status: 200, body: {} }),
  });
}

function sessionWith(fake: ReturnType<typeof createFakeIdentityFetch>, channel: BroadcastChannel | null = null) {
  const client = createIdentityClient({ fetch: fake.fetch, timeoutMs: 30_000 });
  return new AuthSession({ client, channel });
}

const tokenCalls = (fake: ReturnType<typeof createFakeIdentityFetch>) =>
  fake.calls.filter((call) => call.path === 'v1/token').length;

describe('AuthSession timing (docs/product.md, Sessions)', () => {
  let session: AuthSession;
  beforeEach(() => vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => {
    session?.dispose();
    vi.useRealTimers();
  });

  it('the constants are the product’s (docs/product.md, Sessions)', () => {
    expect(TOKEN_EXPIRY_BUFFER_MS).toBe(30_000);
    expect(PROACTIVE_REFRESH_LEAD_MS).toBe(5 * 60_000);
    expect(REFRESH_RETRY_MIN_MS).toBe(30_000);
    expect(REFRESH_RETRY_MAX_MS).toBe(16 * 60_000);
  });

  it('a token counts as expired 30 s before its expiry: getIdToken then refreshes first', async () => {
    const fake = scriptedServer();
    session = sessionWith(fake);
    await accountSessionOf(session).signIn(email, 'secret1');
    session.dispose(); // stop the proactive timer: this test is about getIdToken alone
    session = sessionWith(fake);
    await accountSessionOf(session).signIn(email, 'secret1');
    const first = await session.getIdToken();

    // Just before the buffer the held token is still good: no network.
    vi.setSystemTime(Date.now() + 3600_000 - TOKEN_EXPIRY_BUFFER_MS - 1);
    expect(await session.getIdToken()).toBe(first);
    expect(tokenCalls(fake)).toBe(0);

    // At exp − 30 s it counts as expired: getIdToken fetches a new one.
    vi.setSystemTime(Date.now() + 1);
    const second = await session.getIdToken();
    expect(tokenCalls(fake)).toBe(1);
    expect(second).not.toBe(first);
  });

  it('refreshes proactively 5 minutes before expiry, then again for the new token', async () => {
    const fake = scriptedServer();
    session = sessionWith(fake);
    await accountSessionOf(session).signIn(email, 'secret1');

    await vi.advanceTimersByTimeAsync(3600_000 - PROACTIVE_REFRESH_LEAD_MS - 1);
    expect(tokenCalls(fake)).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(tokenCalls(fake)).toBe(1);

    await vi.advanceTimersByTimeAsync(3600_000 - PROACTIVE_REFRESH_LEAD_MS - 1);
    expect(tokenCalls(fake)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(tokenCalls(fake)).toBe(2);
    expect(session.state.status).toBe('signedIn');
  });

  it('a failed refresh retries after 30 s, doubling up to 16 minutes, and recovers', async () => {
    const fake = scriptedServer();
    session = sessionWith(fake);
    await accountSessionOf(session).signIn(email, 'secret1');
    const goodToken = fake.handlers['v1/token']!;
    fake.handlers['v1/token'] = () => errorAnswer('TEMPORARILY_UNAVAILABLE', 503);

    await vi.advanceTimersByTimeAsync(3600_000 - PROACTIVE_REFRESH_LEAD_MS);
    expect(tokenCalls(fake)).toBe(1);

    const expectedDelays = [30, 60, 120, 240, 480, 960, 960, 960].map((seconds) => seconds * 1000);
    for (const [index, delay] of expectedDelays.entries()) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(tokenCalls(fake), `retry ${index + 1} not before ${delay} ms`).toBe(index + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(tokenCalls(fake), `retry ${index + 1} at ${delay} ms`).toBe(index + 2);
    }
    expect(session.state.status).toBe('signedIn');

    // Once the server answers again, the schedule returns to "5 minutes before expiry"...
    fake.handlers['v1/token'] = goodToken;
    await vi.advanceTimersByTimeAsync(REFRESH_RETRY_MAX_MS);
    const afterRecovery = tokenCalls(fake);
    await vi.advanceTimersByTimeAsync(3600_000 - PROACTIVE_REFRESH_LEAD_MS - 1);
    expect(tokenCalls(fake)).toBe(afterRecovery);
    await vi.advanceTimersByTimeAsync(1);
    expect(tokenCalls(fake)).toBe(afterRecovery + 1);

    // ...and a later failure starts the backoff at 30 s again.
    fake.handlers['v1/token'] = () => errorAnswer('TEMPORARILY_UNAVAILABLE', 503);
    await vi.advanceTimersByTimeAsync(3600_000 - PROACTIVE_REFRESH_LEAD_MS);
    const failedOnce = tokenCalls(fake);
    await vi.advanceTimersByTimeAsync(REFRESH_RETRY_MIN_MS);
    expect(tokenCalls(fake)).toBe(failedOnce + 1);
  });

  it('a refresh that finds the session dead (TOKEN_EXPIRED) signs out and stops refreshing', async () => {
    const fake = scriptedServer();
    session = sessionWith(fake);
    await accountSessionOf(session).signIn(email, 'secret1');
    fake.handlers['v1/token'] = () => errorAnswer('TOKEN_EXPIRED');

    await vi.advanceTimersByTimeAsync(3600_000 - PROACTIVE_REFRESH_LEAD_MS);
    expect(session.state.status).toBe('signedOut');
    await vi.advanceTimersByTimeAsync(REFRESH_RETRY_MAX_MS * 4);
    expect(tokenCalls(fake)).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a token of unknown lifetime is refreshed no sooner than 30 s later, never in a loop', async () => {
    const fake = scriptedServer();
    // Neither expiresIn nor a usable exp − iat: the client cannot tell when the token expires.
    fake.handlers['v1/accounts:signInWithPassword'] = () => ({
      status: 200,
      body: { localId: uid, email, displayName: 'Ada', idToken: fakeIdToken(uid, 0), registered: true },
    });
    fake.handlers['v1/token'] = () => ({
      status: 200,
      body: { id_token: fakeIdToken(uid, 0), access_token: 'x', token_type: 'Bearer', user_id: uid },
    });
    session = sessionWith(fake);
    await accountSessionOf(session).signIn(email, 'secret1');

    await vi.advanceTimersByTimeAsync(REFRESH_RETRY_MIN_MS - 1);
    expect(tokenCalls(fake)).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(tokenCalls(fake)).toBe(1);
    await vi.advanceTimersByTimeAsync(10 * REFRESH_RETRY_MIN_MS);
    expect(tokenCalls(fake)).toBe(11);
    expect(session.state.status).toBe('signedIn');
  });
});

describe('AuthSession state', () => {
  let session: AuthSession;
  afterEach(() => session?.dispose());

  it('restores a session from the cookie at load: unknown → signedIn with the looked-up profile', async () => {
    const fake = scriptedServer();
    session = sessionWith(fake);
    const seen: AuthState[] = [];
    session.onAuthStateChanged((state) => seen.push(state));
    expect(session.state.status).toBe('unknown');

    await session.restore();
    expect(session.state).toEqual({ status: 'signedIn', user: { uid, email, displayName: 'Ada' } });
    expect(fake.calls.map((call) => call.path)).toEqual(['v1/token', 'v1/accounts:lookup']);
    expect(fake.calls[0]!.body).toEqual({ grant_type: 'refresh_token' });
    expect(seen.map((state) => state.status)).toEqual(['signedIn']);
  });

  it('restore without a live session ends signed out', async () => {
    const fake = scriptedServer();
    fake.handlers['v1/token'] = () => errorAnswer('MISSING_REFRESH_TOKEN');
    session = sessionWith(fake);
    await session.restore();
    expect(session.state.status).toBe('signedOut');
    expect(await session.getIdToken()).toBeNull();
  });

  it('with a session hint, a browser that never signed in skips the server; after a sign-in it asks', async () => {
    const fake = scriptedServer();
    let note = false;
    const hint = { mayHaveSession: () => note, remember: (value: boolean) => (note = value) };
    const client = createIdentityClient({ fetch: fake.fetch, timeoutMs: 30_000 });
    session = new AuthSession({ client, hint });
    await session.restore();
    expect(session.state.status).toBe('signedOut');
    expect(fake.calls).toHaveLength(0);

    await accountSessionOf(session).signIn(email, 'secret1');
    expect(note).toBe(true);
    session.dispose();
    session = new AuthSession({ client, hint });
    await session.restore();
    expect(session.state.status).toBe('signedIn');
    await session.signOut();
    expect(note).toBe(false);
  });

  it('a restore that cannot reach the server signs out for now but keeps the hint', async () => {
    const fake = scriptedServer();
    fake.handlers['v1/token'] = () => 'hang';
    let note = true;
    const hint = { mayHaveSession: () => note, remember: (value: boolean) => (note = value) };
    const client = createIdentityClient({ fetch: fake.fetch, timeoutMs: 10 });
    session = new AuthSession({ client, hint });
    await session.restore();
    expect(session.state.status).toBe('signedOut');
    expect(note).toBe(true);
  });

  it('a restore the server does not answer goes on signed out after RESTORE_WAIT_MS, the hint kept', async () => {
    vi.useFakeTimers();
    try {
      const fake = scriptedServer();
      fake.handlers['v1/token'] = () => 'hang';
      let note = true;
      const hint = { mayHaveSession: () => note, remember: (value: boolean) => (note = value) };
      // The request itself would give up only after 30 s (docs/product.md, Rules).
      session = new AuthSession({ client: createIdentityClient({ fetch: fake.fetch, timeoutMs: 30_000 }), hint });
      const restored = session.restore();
      await vi.advanceTimersByTimeAsync(RESTORE_WAIT_MS - 1);
      expect(session.state.status).toBe('unknown');
      await vi.advanceTimersByTimeAsync(1);
      await restored;
      expect(session.state.status).toBe('signedOut');
      expect(note).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sign-out revokes the session on the server before clearing local state', async () => {
    const fake = scriptedServer();
    session = sessionWith(fake);
    await accountSessionOf(session).signIn(email, 'secret1');
    let statusWhileRevoking: string | undefined;
    fake.handlers['v2/accounts:revokeToken'] = (body) => {
      statusWhileRevoking = session.state.status;
      expect(body).toEqual({ tokenType: 'REFRESH_TOKEN' });
      return { status: 200, body: {} };
    };

    await session.signOut();
    expect(statusWhileRevoking).toBe('signedIn');
    expect(session.state.status).toBe('signedOut');
    expect(await session.getIdToken()).toBeNull();
  });

  it('a Log Out the server did not hear is retried at the next load, before the cookie is used', async () => {
    const fake = scriptedServer();
    let pending = false;
    const pendingRevoke = { isPending: () => pending, remember: (value: boolean) => (pending = value) };
    const client = createIdentityClient({ fetch: fake.fetch, timeoutMs: 10 });
    session = new AuthSession({ client, pendingRevoke });
    await accountSessionOf(session).signIn(email, 'secret1');
    fake.handlers['v2/accounts:revokeToken'] = () => 'hang'; // offline
    await expect(session.signOut()).rejects.toThrow();
    expect(session.state.status).toBe('signedOut');
    expect(pending).toBe(true);

    // Next load, still offline: signed out, and the cookie's session is not used.
    session.dispose();
    fake.calls.length = 0;
    session = new AuthSession({ client, pendingRevoke });
    await session.restore();
    expect(session.state.status).toBe('signedOut');
    expect(fake.calls.map((call) => call.path)).toEqual(['v2/accounts:revokeToken']);
    expect(pending).toBe(true);

    // Next load, back online: the revoke goes first and the note is cleared.
    fake.handlers['v2/accounts:revokeToken'] = () => ({ status: 200, body: {} });
    session.dispose();
    fake.calls.length = 0;
    session = new AuthSession({ client, pendingRevoke });
    await session.restore();
    expect(session.state.status).toBe('signedOut');
    expect(fake.calls.map((call) => call.path)).toEqual(['v2/accounts:revokeToken']);
    expect(pending).toBe(false);

    // With nothing pending, the load asks for the session as usual.
    session.dispose();
    fake.calls.length = 0;
    session = new AuthSession({ client, pendingRevoke });
    await session.restore();
    expect(fake.calls[0]!.path).toBe('v1/token');
  });

  it('a new sign-in clears a pending revoke (the server ends the replaced session itself)', async () => {
    const fake = scriptedServer();
    let pending = true;
    const pendingRevoke = { isPending: () => pending, remember: (value: boolean) => (pending = value) };
    const client = createIdentityClient({ fetch: fake.fetch, timeoutMs: 30_000 });
    session = new AuthSession({ client, pendingRevoke });
    await accountSessionOf(session).signIn(email, 'secret1');
    expect(pending).toBe(false);
  });

  it('signup signs in first, then sets the display name', async () => {
    const fake = scriptedServer();
    session = sessionWith(fake);
    await accountSessionOf(session).createUser(email, 'secret1');
    expect(session.state.status).toBe('signedIn');
    await accountSessionOf(session).updateDisplayName('Ada Lovelace');
    expect(fake.calls.map((call) => call.path)).toEqual(['v1/accounts:signUp', 'v1/accounts:update']);
    expect(fake.calls[1]!.body).toMatchObject({ displayName: 'Ada Lovelace', returnSecureToken: true });
    expect(session.state.user?.displayName).toBe('Ada Lovelace');
  });

  for (const serverCode of ['USER_DISABLED', 'TOKEN_EXPIRED', 'USER_NOT_FOUND']) {
    it(`${serverCode} from an account call signs the user out`, async () => {
      const fake = scriptedServer();
      session = sessionWith(fake);
      await accountSessionOf(session).signIn(email, 'secret1');
      fake.handlers['v1/accounts:update'] = () => errorAnswer(serverCode);

      await expect(accountSessionOf(session).updateDisplayName('New')).rejects.toBeInstanceOf(AuthError);
      expect(session.state.status).toBe('signedOut');
    });
  }

  it('other errors (requires-recent-login, invalid-user-token) keep the user signed in', async () => {
    const fake = scriptedServer();
    session = sessionWith(fake);
    await accountSessionOf(session).signIn(email, 'secret1');
    fake.handlers['v1/accounts:update'] = () => errorAnswer('CREDENTIAL_TOO_OLD_LOGIN_AGAIN');
    await expect(accountSessionOf(session).updateEmail('new@example.com')).rejects.toMatchObject({
      code: 'requires-recent-login',
    });
    fake.handlers['v1/accounts:update'] = () => errorAnswer('INVALID_ID_TOKEN');
    await expect(accountSessionOf(session).updatePassword('another1')).rejects.toMatchObject({
      code: 'invalid-user-token',
    });
    expect(session.state.status).toBe('signedIn');
  });

  it('reauthenticate signs in again with the current email and adopts the new token', async () => {
    const fake = scriptedServer();
    session = sessionWith(fake);
    await accountSessionOf(session).signIn(email, 'secret1');
    const before = await session.getIdToken();
    await accountSessionOf(session).reauthenticate('secret1');
    expect(fake.calls.at(-1)).toMatchObject({
      path: 'v1/accounts:signInWithPassword',
      body: { email, password: 'secret1' },
    });
    expect(await session.getIdToken()).not.toBe(before);
  });

  it('deleting the account calls accounts:delete with the ID token and signs out', async () => {
    const fake = scriptedServer();
    session = sessionWith(fake);
    await accountSessionOf(session).signIn(email, 'secret1');
    const idToken = await session.getIdToken();
    await accountSessionOf(session).deleteAccount();
    expect(fake.calls.find((call) => call.path === 'v1/accounts:delete')!.body).toEqual({ idToken });
    expect(session.state.status).toBe('signedOut');
  });
});

describe('AuthSession across tabs (BroadcastChannel)', () => {
  const sessions: AuthSession[] = [];
  afterEach(() => sessions.splice(0).forEach((session) => session.dispose()));

  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(check()).toBe(true);
  };

  it('a sign-in in one tab reaches the other, which re-reads the session from the server; sign-out too', async () => {
    const fakeA = scriptedServer();
    const fakeB = scriptedServer();
    const seenOnChannel: unknown[] = [];
    const spy = new BroadcastChannel(AUTH_CHANNEL_NAME);
    spy.onmessage = (event) => seenOnChannel.push(event.data);
    const tabA = sessionWith(fakeA, new BroadcastChannel(AUTH_CHANNEL_NAME));
    // Tab B's hint stays "no session", as when localStorage has not yet caught up across processes:
    // the message alone must make it ask the server.
    const staleHint = { mayHaveSession: () => false, remember: () => undefined };
    const tabB = new AuthSession({
      client: createIdentityClient({ fetch: fakeB.fetch, timeoutMs: 30_000 }),
      channel: new BroadcastChannel(AUTH_CHANNEL_NAME),
      hint: staleHint,
    });
    sessions.push(tabA, tabB);
    // Tab B loads before anyone signed in: the hint says so, and it does not even ask.
    await tabB.restore();
    expect(tabB.state.status).toBe('signedOut');
    expect(fakeB.calls).toHaveLength(0);

    await accountSessionOf(tabA).signIn(email, 'secret1');
    await waitFor(() => tabB.state.status === 'signedIn');
    expect(fakeB.calls.map((call) => call.path)).toEqual(['v1/token', 'v1/accounts:lookup']);

    await tabA.signOut();
    await waitFor(() => tabB.state.status === 'signedOut');

    await waitFor(() => seenOnChannel.length >= 2);
    // Only the kind of change travels between tabs, never a token.
    expect(seenOnChannel).toEqual([{ type: 'signedIn' }, { type: 'signedOut' }]);
    spy.close();
  });
});
