import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import {
  identityClient,
  identityTestApp,
  protocolError,
  uniqueEmail,
} from '../../../../test/support/identityTestClient.ts';

const cookieMode = { 'x-inkwell-session': 'cookie' };

function sessionCookieFrom(headers: Headers): string | undefined {
  const header = headers.get('set-cookie');
  return header ? /inkwell_session=([^;]*)/.exec(header)?.[1] : undefined;
}

describe.each(contractDatabases())('browser session mode on $dialect', (dialectCase) => {
  const app = identityTestApp(dialectCase);

  it('keeps the refresh token in an HttpOnly cookie, refreshes and signs out with it', async () => {
    const email = uniqueEmail();
    const signUp = await app.client.call(
      '/v1/accounts:signUp',
      { email, password: 'secret-1', returnSecureToken: true },
      { headers: cookieMode },
    );
    expect(signUp.status).toBe(200);
    expect(signUp.body.refreshToken).toBeUndefined();
    expect(signUp.body.idToken).toEqual(expect.any(String));
    const setCookie = signUp.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^inkwell_session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/identity');
    expect(setCookie).not.toContain('Secure');
    const refreshToken = sessionCookieFrom(signUp.headers)!;
    // Beside it, the ID token for the article pages' and editor's documents only (decisions 0830,
    // 0862), as long as it lives.
    const viewer = signUp.headers.getSetCookie().filter((cookie) => cookie.startsWith('inkwell_viewer='));
    expect(viewer).toEqual([
      `inkwell_viewer=${signUp.body.idToken}; Max-Age=3600; Path=/article; HttpOnly; SameSite=Lax`,
      `inkwell_viewer=${signUp.body.idToken}; Max-Age=3600; Path=/article-update; HttpOnly; SameSite=Lax`,
    ]);

    const cookie = `inkwell_session=${refreshToken}`;
    const refreshed = await app.client.call(
      '/v1/token',
      { grant_type: 'refresh_token' },
      { headers: { ...cookieMode, cookie } },
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toBeUndefined();
    expect(refreshed.body.id_token).toEqual(expect.any(String));
    expect(refreshed.body.access_token).toBe(refreshed.body.id_token);
    expect(refreshed.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(`^inkwell_viewer=${refreshed.body.id_token}; `),
    );

    // Without the mode header the cookie is not enough (a cross-site form cannot send the header).
    const noHeader = await app.client.call('/v1/token', { grant_type: 'refresh_token' }, { headers: { cookie } });
    expect(noHeader.body).toEqual(protocolError('MISSING_REFRESH_TOKEN'));

    const signIn = await app.client.call(
      '/v1/accounts:signInWithPassword',
      { email, password: 'secret-1', returnSecureToken: true },
      { headers: cookieMode },
    );
    expect(signIn.body.refreshToken).toBeUndefined();
    expect(sessionCookieFrom(signIn.headers)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const revoked = await app.client.call('/v2/accounts:revokeToken', {}, { headers: { ...cookieMode, cookie } });
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get('set-cookie')).toMatch(/^inkwell_session=; Max-Age=0; /);
    expect(revoked.headers.getSetCookie()).toContain(
      'inkwell_viewer=; Max-Age=0; Path=/article; HttpOnly; SameSite=Lax',
    );
    expect(revoked.headers.getSetCookie()).toContain(
      'inkwell_viewer=; Max-Age=0; Path=/article-update; HttpOnly; SameSite=Lax',
    );
    const dead = await app.client.call(
      '/v1/token',
      { grant_type: 'refresh_token' },
      { headers: { ...cookieMode, cookie } },
    );
    expect(dead.body).toEqual(protocolError('TOKEN_EXPIRED'));

    // A password change hands the caller a new cookie, not a body token.
    const changed = await app.client.call(
      '/v1/accounts:update',
      { idToken: signIn.body.idToken, password: 'secret-2', returnSecureToken: true },
      { headers: cookieMode },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.refreshToken).toBeUndefined();
    expect(sessionCookieFrom(changed.headers)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('ends the session a replaced cookie held, on sign-in and on email change', async () => {
    const email = uniqueEmail();
    const refreshWith = (token: string) =>
      app.client.call(
        '/v1/token',
        { grant_type: 'refresh_token' },
        { headers: { ...cookieMode, cookie: `inkwell_session=${token}` } },
      );
    const signUp = await app.client.call(
      '/v1/accounts:signUp',
      { email, password: 'secret-1', returnSecureToken: true },
      { headers: cookieMode },
    );
    const first = sessionCookieFrom(signUp.headers)!;

    const again = await app.client.call(
      '/v1/accounts:signInWithPassword',
      { email, password: 'secret-1', returnSecureToken: true },
      { headers: { ...cookieMode, cookie: `inkwell_session=${first}` } },
    );
    expect(again.status).toBe(200);
    const second = sessionCookieFrom(again.headers)!;
    expect(second).not.toBe(first);
    expect((await refreshWith(first)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await refreshWith(second)).status).toBe(200);

    const changed = await app.client.call(
      '/v1/accounts:update',
      { idToken: again.body.idToken, email: uniqueEmail('moved'), returnSecureToken: true },
      { headers: { ...cookieMode, cookie: `inkwell_session=${second}` } },
    );
    expect(changed.status).toBe(200);
    const third = sessionCookieFrom(changed.headers)!;
    expect((await refreshWith(second)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    expect((await refreshWith(third)).status).toBe(200);
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const secure = await startTestApp(dialectCase, { PUBLIC_URL: 'https://blog.example' });
    try {
      const answer = await identityClient(secure.url).call(
        '/v1/accounts:signUp',
        { email: uniqueEmail(), password: 'secret-1' },
        { headers: cookieMode },
      );
      expect(answer.headers.get('set-cookie')).toMatch(/; Secure(;|$)/);
    } finally {
      await secure.close();
    }
  });

  it('reads its cookie among others, and answers a mangled one with a protocol error', async () => {
    const signUp = await app.client.call(
      '/v1/accounts:signUp',
      { email: uniqueEmail(), password: 'secret-1', returnSecureToken: true },
      { headers: cookieMode },
    );
    const token = sessionCookieFrom(signUp.headers)!;
    const refresh = (cookie: string) =>
      app.client.call('/v1/token', { grant_type: 'refresh_token' }, { headers: { ...cookieMode, cookie } });
    expect((await refresh(`a=1; inkwell_session=${token}; b=2`)).status).toBe(200);
    expect((await refresh(`xinkwell_session=${token}`)).body).toEqual(protocolError('MISSING_REFRESH_TOKEN'));
    expect((await refresh('inkwell_session=%E0%A4%A')).body).toEqual(protocolError('INVALID_REFRESH_TOKEN'));
  });
});
