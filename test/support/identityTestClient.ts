import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp } from './testApp.ts';
import type { DialectCase } from './testDatabases.ts';

/** Test helper: calls the /identity protocol over real HTTP. */
export interface ProtocolAnswer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
  body: any;
  text: string;
}

export function identityClient(baseUrl: string) {
  const call = async (
    path: string,
    body?: unknown,
    options: { headers?: Record<string, string>; method?: string; raw?: string } = {},
  ): Promise<ProtocolAnswer> => {
    const init: RequestInit = {
      method: options.method ?? (body === undefined && options.raw === undefined ? 'GET' : 'POST'),
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(options.raw !== undefined ? { body: options.raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
    };
    const response = await fetch(`${baseUrl}/identity${path}?key=test-key`, init);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };

  return {
    call,
    signUp: (email: string, password: string, extra: Record<string, unknown> = {}) =>
      call('/v1/accounts:signUp', { email, password, returnSecureToken: true, ...extra }),
    signIn: (email: string, password: string) =>
      call('/v1/accounts:signInWithPassword', { email, password, returnSecureToken: true }),
    lookup: (idToken: string) => call('/v1/accounts:lookup', { idToken }),
    update: (body: Record<string, unknown>) => call('/v1/accounts:update', body),
    refresh: (refreshToken: string) => call('/v1/token', { grant_type: 'refresh_token', refresh_token: refreshToken }),
  };
}

/** The protocol's error body for a code, for exact comparisons. */
export function protocolError(message: string, status = 400) {
  return { error: { code: status, message, errors: [{ message, domain: 'global', reason: 'invalid' }] } };
}

/** A unique email per test, so tests in one app do not collide. */
let counter = 0;
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export interface IdentityTestApp {
  server: TestApp;
  client: ReturnType<typeof identityClient>;
}

/** For one describe block: a real server and a protocol client for it, filled in by beforeAll. */
export function identityTestApp(dialectCase: DialectCase): IdentityTestApp {
  const app = {} as IdentityTestApp;
  beforeAll(async () => {
    app.server = await startTestApp(dialectCase);
    app.client = identityClient(app.server.url);
  });
  afterAll(() => app.server.close());
  return app;
}
