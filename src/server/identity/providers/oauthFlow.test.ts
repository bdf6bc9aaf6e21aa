import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, passProvider, request } from '../../../../test/support/providerBrowserFlow.ts';
import { identityClient, uniqueEmail } from '../../../../test/support/identityTestClient.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { markAddressVerified } from '../../../../test/support/verifiedAccounts.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../../../../test/support/testOidcProvider.ts';
import { providerSignInErrorMessage } from '../../../shared/providerSignIn.ts';

// The provider sends the browser to PUBLIC_URL's callback; the test delivers it to the real server.
const PUBLIC_URL = 'http://localhost:3998';
const PROVIDER = 'oidc.test';

describe.each(contractDatabases())('the browser flow at /identity/oauth on $dialect', (dialectCase) => {
  let provider: TestOidcProvider;
  let server: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    provider = await startTestOidcProvider({ redirectUris: [`${PUBLIC_URL}/identity/oauth/${PROVIDER}/callback`] });
    server = await startTestApp(
      dialectCase,
      { PUBLIC_URL, LOG_LEVEL: 'info', ...provider.env('TEST', 'Test ID') },
      {
        logStream: {
          write: (line: string) => logLines.push(line),
        } as unknown as NodeJS.WritableStream,
      },
    );
  });
  afterAll(async () => {
    await server.close();
    await provider.close();
  });

  /** The server's URL for a path, and PUBLIC_URL's links taken to the server. */
  const local = (url: string | URL) => {
    const parsed = new URL(url, PUBLIC_URL);
    return `${server.url}${parsed.pathname}${parsed.search}`;
  };

  async function start(jar: CookieJar, continuePath?: string) {
    const query = continuePath === undefined ? '' : `?continue=${encodeURIComponent(continuePath)}`;
    const started = await request(jar, local(`/identity/oauth/${PROVIDER}/start${query}`));
    expect(started.status).toBe(302);
    return new URL(started.headers.get('location')!);
  }

  /** The whole flow as a browser makes it; answers the callback's response. */
  async function signInThroughProvider(login: string, continuePath?: string) {
    const jar = new CookieJar();
    const authorization = await start(jar, continuePath);
    const callback = await passProvider(jar, authorization.href, login);
    const answered = await request(jar, local(callback));
    return { jar, callback, answered };
  }

  it('starts with the code flow, PKCE S256, a nonce, and state bound to a short-lived HttpOnly cookie', async () => {
    const jar = new CookieJar();
    const started = await request(jar, local(`/identity/oauth/${PROVIDER}/start?continue=/profile`));
    const location = new URL(started.headers.get('location')!);
    expect(location.origin).toBe(provider.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: provider.clientId,
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: `${PUBLIC_URL}/identity/oauth/${PROVIDER}/callback`,
      code_challenge_method: 'S256',
    });
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('nonce')).toBeTruthy();
    const cookie = started.headers.getSetCookie().find((line) => line.startsWith('inkwell_oauth_state='))!;
    expect(cookie).toContain(`inkwell_oauth_state=${location.searchParams.get('state')}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=600/);
    expect(cookie).toMatch(/Path=\/identity\/oauth/);
  });

  it('signs a new person in and ends in the browser session a password sign-in makes, at the continue path', async () => {
    const login = `reader-${Date.now()}`;
    provider.people.set(login, { email: uniqueEmail('flow'), email_verified: true, name: 'Flow Reader' });
    const { jar, answered } = await signInThroughProvider(login, '/profile?tab=1');
    expect(answered.status).toBe(302);
    expect(answered.headers.get('location')).toBe('/profile?tab=1');
    const session = jar.get(server.url, 'inkwell_session');
    expect(session).toBeTruthy();
    expect(answered.headers.getSetCookie().find((line) => line.startsWith('inkwell_session='))).toMatch(
      /HttpOnly; SameSite=Strict/,
    );
    // A note the app can read, so that it asks for the session (issue 35, finding 9): not a credential.
    const note = answered.headers.getSetCookie().find((line) => line.startsWith('inkwell_signed_in='));
    expect(note).toMatch(/^inkwell_signed_in=1; Max-Age=300; Path=\/; SameSite=Lax$/);
    // The web app's restore: v1/token in browser session mode with the cookie.
    const restored = await fetch(`${server.url}/identity/v1/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-inkwell-session': 'cookie',
        cookie: `inkwell_session=${session}`,
      },
      body: JSON.stringify({ grant_type: 'refresh_token' }),
    });
    const tokens = (await restored.json()) as { id_token: string };
    expect(restored.status).toBe(200);
    const claims = decodeJwt(tokens.id_token);
    expect(claims).toMatchObject({
      email: provider.people.get(login)!.email,
      name: 'Flow Reader',
      email_verified: true,
      firebase: { sign_in_provider: PROVIDER, identities: { [PROVIDER]: [login] } },
    });
  });

  it('refuses a replayed callback, a forged state and a callback without the browser cookie', async () => {
    const login = `replay-${Date.now()}`;
    const { jar, callback, answered } = await signInThroughProvider(login);
    expect(answered.status).toBe(302);
    expect(answered.headers.get('location')).toBe('/');
    // The same callback again (its state cookie restored, as an attacker holding both would):
    const replay = await fetch(local(callback), {
      redirect: 'manual',
      headers: { cookie: `inkwell_oauth_state=${callback.searchParams.get('state')}` },
    });
    expect(replay.headers.get('location')).toBe('/login?error=state_invalid');

    const forgedJar = new CookieJar();
    const authorization = await start(forgedJar);
    const forged = await request(
      forgedJar,
      local(`/identity/oauth/${PROVIDER}/callback?code=abc&state=forged-${authorization.searchParams.get('state')}`),
    );
    expect(forged.headers.get('location')).toBe('/login?error=state_invalid');

    // A callback delivered to a browser that did not start the flow (no cookie): login CSRF.
    const elsewhere = new CookieJar();
    const started = await start(elsewhere);
    const returned = await passProvider(elsewhere, started.href, `csrf-${Date.now()}`);
    const noCookie = await fetch(local(returned), { redirect: 'manual' });
    expect(noCookie.headers.get('location')).toBe('/login?error=state_invalid');
    expect(jar.get(server.url, 'inkwell_session')).toBeTruthy();
  });

  it('goes only to same-origin paths after signing in', async () => {
    for (const target of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const { answered } = await signInThroughProvider(`origin-${Date.now()}-${target.length}`, target);
      expect(answered.headers.get('location')).toBe('/');
    }
  });

  it('goes only to same-origin paths after dot segments and escapes are resolved (issue 35, finding 3)', async () => {
    const offSite = [
      '/.//evil.example/x',
      '/..//evil.example',
      '/%2e//evil.example',
      '/a/..//x',
      '/%2e%2e//x',
      '/%2E%2E//evil.example',
      '/./\\evil.example',
      '/a/..\\/evil.example',
    ];
    let n = 0;
    for (const target of offSite) {
      n += 1;
      const { answered } = await signInThroughProvider(`dots-${Date.now()}-${n}`, target);
      expect(answered.status, target).toBe(302);
      expect(answered.headers.get('location'), target).toBe('/');
    }
    // Dot segments that stay on the site still arrive where they lead.
    for (const [target, lands] of [
      ['/a/../profile', '/profile'],
      ['/./profile?tab=2#x', '/profile?tab=2#x'],
      ['/%2e/profile', '/profile'],
    ] as const) {
      n += 1;
      const { answered } = await signInThroughProvider(`dots-${Date.now()}-${n}`, target);
      expect(answered.headers.get('location'), target).toBe(lands);
    }
  });

  it('sends failures to /login?error=CODE: an unconfigured provider, a cancelled sign-in, an account to confirm', async () => {
    const unknown = await fetch(`${server.url}/identity/oauth/oidc.nobody/start`, { redirect: 'manual' });
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get('location')).toBe('/login?error=provider_unknown');

    const jar = new CookieJar();
    const authorization = await start(jar);
    const cancelled = await request(
      jar,
      local(
        `/identity/oauth/${PROVIDER}/callback?error=access_denied&state=${authorization.searchParams.get('state')}`,
      ),
    );
    expect(cancelled.headers.get('location')).toBe('/login?error=cancelled');

    // An account holds the address, and the provider does not vouch for it.
    const email = uniqueEmail('holder');
    const client = identityClient(server.url);
    await client.signUp(email, 'holder password');
    const login = `unverified-${Date.now()}`;
    provider.people.set(login, { email, email_verified: false });
    const { answered } = await signInThroughProvider(login);
    expect(answered.headers.get('location')).toBe('/login?error=account_exists');
    expect(answered.headers.getSetCookie().some((line) => line.startsWith('inkwell_session='))).toBe(false);
  });

  it('connects a provider to the signed-in account (Connect on the profile)', async () => {
    const client = identityClient(server.url);
    const email = uniqueEmail('connect');
    const signedUp = await client.signUp(email, 'connect password');
    await markAddressVerified(server, signedUp.body.localId);
    const jar = new CookieJar();
    const started = await fetch(local(`/identity/oauth/${PROVIDER}/start`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: signedUp.body.idToken, continue: '/profile' }),
    });
    jar.store(server.url, started);
    const body = (await started.json()) as { kind: string; authUri: string };
    expect(body.kind).toBe('inkwell#ProviderLinkStart');
    const login = `connect-${Date.now()}`;
    provider.people.set(login, { email: uniqueEmail('provider-side'), email_verified: true });
    const callback = await passProvider(jar, body.authUri, login);
    const answered = await request(jar, local(callback));
    expect(answered.headers.get('location')).toBe('/profile');
    const lookup = await client.lookup(signedUp.body.idToken);
    expect(lookup.body.users[0].providerUserInfo.map((info: { providerId: string }) => info.providerId)).toEqual([
      'password',
      PROVIDER,
    ]);
  });

  it('writes no code, state or token into the log', () => {
    const joined = logLines.join('\n');
    expect(joined).toContain('/identity/oauth/oidc.test/callback');
    expect(joined).not.toMatch(/[?&](code|state)=(?!%5Bredacted%5D)[^&"\s]/i);
    expect(joined).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./);
  });
});

describe.each(contractDatabases())(
  'a provider sign-up refused by the sign-up policy on $dialect (issue 35, finding 8)',
  (dialectCase) => {
    let provider: TestOidcProvider;
    const servers: TestApp[] = [];
    beforeAll(async () => {
      provider = await startTestOidcProvider({ redirectUris: [`${PUBLIC_URL}/identity/oauth/${PROVIDER}/callback`] });
    });
    afterAll(async () => {
      for (const server of servers) await server.close();
      await provider.close();
    });

    it.each([
      ['closed', 'signup_closed', 'Sign-up is closed.'],
      ['invite', 'invitation_required', 'Sign-up is by invitation only.'],
    ] as const)(
      'SIGNUP=%s comes back to /login?error=%s, logged below error level, no session',
      async (policy, code, message) => {
        const logLines: string[] = [];
        const server = await startTestApp(
          dialectCase,
          { PUBLIC_URL, SIGNUP: policy, LOG_LEVEL: 'info', ...provider.env('TEST', 'Test ID') },
          { logStream: { write: (line: string) => logLines.push(line) } as unknown as NodeJS.WritableStream },
        );
        servers.push(server);
        const local = (url: string | URL) => {
          const parsed = new URL(url, PUBLIC_URL);
          return `${server.url}${parsed.pathname}${parsed.search}`;
        };
        const login = `refused-${policy}-${Date.now()}`;
        provider.people.set(login, { email: uniqueEmail('refused'), email_verified: true, name: 'Refused' });
        const jar = new CookieJar();
        const started = await request(jar, local(`/identity/oauth/${PROVIDER}/start?continue=/profile`));
        const callback = await passProvider(jar, started.headers.get('location')!, login);
        const answered = await request(jar, local(callback));
        expect(answered.status).toBe(302);
        expect(answered.headers.get('location')).toBe(`/login?error=${code}`);
        expect(answered.headers.getSetCookie().some((line) => line.startsWith('inkwell_session='))).toBe(false);
        // The login page's sentence for the code is the policy's own (src/shared/providerSignIn.ts).
        expect(providerSignInErrorMessage(code)).toBe(message);
        const entries = logLines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown });
        expect(entries.filter((entry) => entry.level >= 50)).toEqual([]);
        expect(entries.some((entry) => entry.err !== undefined)).toBe(false);
        expect(entries.find((entry) => entry.msg === 'provider sign-in refused')?.level).toBe(30);
      },
    );
  },
);
