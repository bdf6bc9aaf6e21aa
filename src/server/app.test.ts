import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';
import { articlesApi, sampleArticle, signUp } from '../../test/support/articlesTestClient.ts';
import { contractDatabases, storageDatabases } from '../../test/support/testDatabases.ts';
import { firstDataPath } from '../shared/routes.ts';
import { tagSlug } from '../shared/tags.ts';

// Written out, not imported: a change to the policy must show up here. Images may come from
// any http(s) host; nothing else leaves the origin, and nothing inline runs.
const CONTENT_SECURITY_POLICY =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self' https: http: data:;font-src 'self';" +
  "connect-src 'self';object-src 'none';base-uri 'none';form-action 'self';frame-ancestors 'none'";

describe.each(storageDatabases())('the server on $dialect', (dialectCase) => {
  let server: TestApp;
  beforeAll(async () => {
    // The real build, as `npm start` serves it: its assets and the server renderer of the reading screens.
    server = await startTestApp(dialectCase, {}, { webDist: 'built' });
  });
  afterAll(() => server.close());

  it('answers /healthz and /readyz', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('serves the app shell with 200 on app routes, uncached', async () => {
    for (const route of ['/', '/login', '/signup', '/forgot-password', '/profile', '/article-update']) {
      const response = await fetch(`${server.url}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      // The home page arrives rendered (ssrScreens.test.ts); the others are the app's empty root.
      const html = await response.text();
      expect(html.includes('<div id="root"></div>'), route).toBe(route !== '/');
    }
  });

  it('serves the shell whatever encodings the client accepts', async () => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      const response = await fetch(`${server.url}/`, { headers: { 'accept-encoding': encoding } });
      expect(response.status, encoding).toBe(200);
      expect(await response.text()).toContain('<div class="flex min-h-dvh flex-col">');
    }
  });

  it('never compresses identity answers: they carry tokens (BREACH)', async () => {
    const headers = { 'content-type': 'application/json', 'accept-encoding': 'br, gzip' };
    const signUp = await fetch(`${server.url}/identity/v1/accounts:signUp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        email: 'compression@example.com',
        password: 'a long enough password',
        returnSecureToken: true,
      }),
    });
    const answer = (await signUp.json()) as { idToken: string; refreshToken: string };
    expect(signUp.status).toBe(200);
    expect(JSON.stringify(answer).length).toBeGreaterThan(1024);
    expect(signUp.headers.get('content-encoding')).toBeNull();
    const jwks = await fetch(`${server.url}/identity/.well-known/jwks.json`, { headers });
    expect(jwks.headers.get('content-encoding')).toBeNull();
    // The rest is still compressed: see 'serves hashed assets as immutable and compressed'.
  });

  it('hints no API call in the shell: the reading screens carry their data, the others fetch none first', async () => {
    for (const route of ['/', '/login', '/no-such-page', '/article/AAAAAAAAAAAAAAAAAAAA']) {
      // (The shell's one preload is the reading face's file, decision 0864: no API call.)
      expect(await (await fetch(`${server.url}${route}`)).text(), route).not.toContain('rel="preload" as="fetch"');
    }
  });

  it("carries a served screen's first data in the page, the very list the app would ask for first (its record in routes.ts)", async () => {
    // The tag screen is rendered by the server (decision 0831): its shell holds the tag's first
    // page, so it hints nothing for the app to fetch.
    const author = await signUp(server.url, 'Hinting Author');
    const tag = `Hint ${Math.random().toString(36).slice(2, 8)}`;
    const created = await articlesApi(server.url).create(author.idToken, { ...sampleArticle('Hinted'), tags: [tag] });
    expect(created.status).toBe(201);
    const pathname = `/tag/${tagSlug(tag)}`;
    const first = firstDataPath(pathname);
    expect(first).toMatch(/^\/articles\?tag=.+&limit=20$/);
    const shell = await (await fetch(`${server.url}${pathname}`)).text();
    expect(shell).toContain('Hinted');
    expect(shell).not.toContain('rel="preload" as="fetch"');
    const page = (await (await fetch(`${server.url}/api${first}`)).json()) as { articles: Array<{ title: string }> };
    expect(page.articles.map((article) => article.title)).toEqual(['Hinted']);
    // An unknown tag is a 404 page: nothing to preload.
    expect(await (await fetch(`${server.url}/tag/no-such-tag-here`)).text()).not.toContain('rel="preload" as="fetch"');
  });

  it('serves the shell with 404 on unknown paths so the app shows its 404 page', async () => {
    const response = await fetch(`${server.url}/no-such-page`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('<div id="root"></div>');
  });

  it('serves hashed assets as immutable and compressed', async () => {
    const shell = await (await fetch(`${server.url}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(shell)?.[1];
    expect(script).toBeDefined();
    const response = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
  });

  it('puts the security headers on every response, router-level errors included', async () => {
    // A URL the router cannot decode fails before any route (review finding 7).
    for (const route of ['/', '/healthz', '/no-such-page', '/%ff', '/api/%ff', '/identity/v1/%ff']) {
      const response = await fetch(`${server.url}${route}`);
      expect(response.headers.get('content-security-policy'), route).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('permissions-policy'), route).toBe('camera=(), microphone=(), geolocation=()');
      expect(response.headers.get('cross-origin-opener-policy'), route).toBe('same-origin');
      // Not over plain http (PUBLIC_URL is http here): it would pin https on the host.
      expect(response.headers.get('strict-transport-security'), route).toBeNull();
      expect(response.headers.get('x-content-type-options'), route).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), route).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('x-request-id'), route).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('x-frame-options'), route).toBe('DENY');
    }
  });
});

describe.each(contractDatabases())('the server behind https', (dialectCase) => {
  let server: TestApp;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { PUBLIC_URL: 'https://blog.example' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tells browsers to use https only (HSTS) on every answer, router-level errors included', async () => {
    for (const route of ['/', '/healthz', '/%ff']) {
      const response = await fetch(`${server.url}${route}`);
      expect(response.headers.get('strict-transport-security'), route).toBe('max-age=31536000; includeSubDomains');
      expect(response.headers.get('content-security-policy'), route).toBe(CONTENT_SECURITY_POLICY);
    }
  });
});
