import type { FetchFunction } from '../../src/web/auth/identityClient.ts';

/** One recorded request to the fake /identity endpoint. */
export interface RecordedCall {
  path: string;
  init: RequestInit;
  body: unknown;
}

type Answer = { status: number; body: unknown } | 'hang' | 'not-json';
type Handler = (body: unknown) => Answer;

/** A JWT-shaped token with the given lifetime (the client only reads its timing claims). */
export function fakeIdToken(uid: string, lifetimeSeconds = 3600, issuedAt = Math.floor(Date.now() / 1000)): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const jti = Math.random().toString(36).slice(2);
  return `${encode({ alg: 'RS256' })}.${encode({ sub: uid, iat: issuedAt, exp: issuedAt + lifetimeSeconds, jti })}.sig`;
}

export function errorAnswer(message: string, status = 400): Answer {
  return {
    status,
    body: { error: { code: status, message, errors: [{ message, domain: 'global', reason: 'invalid' }] } },
  };
}

/**
 * A scripted stand-in for the network (unit tests of timing and error mapping only; the real
 * server is exercised by the browser tests). Answers per path; records every call in order.
 */
export function createFakeIdentityFetch(handlers: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetchFn: FetchFunction = (input, init) => {
    const path = input.replace(/^\/identity\//, '');
    const raw = typeof init.body === 'string' ? init.body : '';
    const body: unknown = raw.startsWith('{') ? JSON.parse(raw) : Object.fromEntries(new URLSearchParams(raw));
    calls.push({ path, init, body });
    const handler = handlers[path];
    const answer: Answer = handler === undefined ? errorAnswer('NOT_SCRIPTED', 404) : handler(body);
    if (answer === 'hang') {
      return new Promise<Response>((_, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    if (answer === 'not-json') return Promise.resolve(new Response('<html>bad gateway</html>', { status: 502 }));
    return Promise.resolve(
      new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  };
  return { fetch: fetchFn, calls, handlers };
}
