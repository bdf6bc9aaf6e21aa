import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketFetch } from './injectedFetch.ts';
import { startTestApp, type TestApp } from './testApp.ts';
import { contractDatabases } from './testDatabases.ts';

// Route tests trust that a request through inject answers as the same request over the socket.
// The same requests, both ways, must give the same status, body and headers a test looks at.
const HEADERS = ['content-type', 'content-encoding', 'etag', 'cache-control', 'vary', 'x-content-type-options'];

describe('fetch through inject answers as fetch over the socket', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp(contractDatabases()[0]!);
    const signUp = await fetch(`${server.url}/identity/v1/accounts:signUp?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'both@example.com', password: 'both ways!', returnSecureToken: true }),
    });
    const { idToken } = (await signUp.json()) as { idToken: string };
    const article = { image: 'https://images.example.com/a.jpg', title: 'Both ways', description: 'x'.repeat(3000) };
    const created = await fetch(`${server.url}/api/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify(article),
    });
    expect(created.status).toBe(201);
  });
  afterAll(() => server.close());

  const requests: Array<[string, RequestInit]> = [
    ['/api/articles', {}],
    ['/api/articles', { headers: { 'accept-encoding': 'br' } }],
    ['/api/articles', { headers: { 'accept-encoding': 'identity' } }],
    ['/api/articles?limit=0', {}],
    ['/', {}],
    ['/no-such-page', {}],
    ['/api/articles', { method: 'HEAD' }],
    [
      '/identity/v1/accounts:lookup?key=k',
      { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } },
    ],
  ];

  it.each(requests)('%s %o', async (path, init) => {
    const [injected, socket] = [
      await fetch(`${server.url}${path}`, init),
      await socketFetch(`${server.url}${path}`, init),
    ];
    expect(injected.status).toBe(socket.status);
    for (const name of HEADERS) expect(injected.headers.get(name), name).toBe(socket.headers.get(name));
    expect(await injected.text()).toBe(await socket.text());
  });
});
