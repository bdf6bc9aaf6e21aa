import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp } from './testApp.ts';
import type { DialectCase } from './testDatabases.ts';

/** Test helper: a signed-up user and the articles API over real HTTP. */
export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
  body: any;
  text: string;
}

export interface TestUser {
  uid: string;
  idToken: string;
  email: string;
  password: string;
}

let counter = 0;

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Signs a new user up through the real sign-in service. */
export async function signUp(baseUrl: string, displayName: string): Promise<TestUser> {
  counter += 1;
  const email = `author-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'correct horse battery staple';
  const response = await fetch(`${baseUrl}/identity/v1/accounts:signUp?key=test`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, displayName, returnSecureToken: true }),
  });
  const result = await answer(response);
  if (result.status !== 200) throw new Error(`sign-up failed: ${result.status} ${result.text}`);
  return { uid: result.body.localId, idToken: result.body.idToken, email, password };
}

export async function identityCall(baseUrl: string, endpoint: string, body: unknown): Promise<Answer> {
  return answer(
    await fetch(`${baseUrl}/identity/v1/${endpoint}?key=test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

export function articlesApi(baseUrl: string) {
  const request = async (
    method: string,
    path: string,
    options: { token?: string; json?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.json !== undefined && headers['content-type'] === undefined)
      headers['content-type'] = 'application/json';
    const body = options.raw ?? (options.json !== undefined ? JSON.stringify(options.json) : undefined);
    return answer(await fetch(`${baseUrl}/api${path}`, { method, headers, ...(body !== undefined ? { body } : {}) }));
  };
  return {
    request,
    list: (query = '', headers: Record<string, string> = {}) => request('GET', `/articles${query}`, { headers }),
    get: (id: string, headers: Record<string, string> = {}) => request('GET', `/articles/${id}`, { headers }),
    create: (token: string | undefined, json: unknown) => request('POST', '/articles', { token, json }),
    update: (token: string | undefined, id: string, json: unknown) =>
      request('PUT', `/articles/${id}`, { token, json }),
    remove: (token: string | undefined, id: string) => request('DELETE', `/articles/${id}`, { token }),
  };
}

export const sampleArticle = (label = 'A day out') => ({
  image: 'https://images.example.com/photo.jpg',
  title: label,
  description: `All about ${label}.`,
});

export interface ArticlesTestApp {
  server: TestApp;
  api: ReturnType<typeof articlesApi>;
  alice: TestUser;
  bob: TestUser;
}

/**
 * For one describe block: a real server (article creation not rate limited, so tests can make many),
 * its articles API and two signed-up authors. The fields are filled in by beforeAll.
 */
export function articlesTestApp(dialectCase: DialectCase): ArticlesTestApp {
  const app = {} as ArticlesTestApp;
  beforeAll(async () => {
    app.server = await startTestApp(dialectCase, {
      RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000',
      RATE_LIMIT_SEARCH_PER_IP: '100000',
    });
    app.api = articlesApi(app.server.url);
    app.alice = await signUp(app.server.url, 'Alice');
    app.bob = await signUp(app.server.url, 'Bob');
  });
  afterAll(() => app.server.close());
  return app;
}
