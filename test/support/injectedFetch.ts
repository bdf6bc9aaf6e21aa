import zlib from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse as InjectResponse } from 'fastify';

/**
 * Route and API tests reach the app through Fastify's `inject` rather than its socket: while a
 * test app is registered here, the global `fetch` (and rawGet) hand requests for its origin
 * to `app.inject`. Tests keep calling `fetch(`${server.url}/…`)` as they would a listening
 * server, and the app still listens there for what must use a socket (a browser, node:http).
 *
 * What fetch itself would do on the wire is done here too, so a test sees the same answer
 * either way: the default request headers undici sends, decoding a compressed body, and
 * following redirects (redirect: 'follow', its default).
 */

const apps = new Map<string, FastifyInstance>();

/** Sends the test's requests for `origin` to `app` through inject, until the returned function is called. */
export function injectRequestsFor(origin: string, app: FastifyInstance): () => void {
  installFetch();
  const key = new URL(origin).origin;
  apps.set(key, app);
  return () => {
    if (apps.get(key) === app) apps.delete(key);
  };
}

function appFor(url: URL): FastifyInstance | undefined {
  return apps.get(url.origin);
}

// What Node's fetch (undici) adds to a request that does not set them.
const FETCH_DEFAULT_HEADERS: Record<string, string> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const MAX_REDIRECTS = 20;

async function inject(app: FastifyInstance, url: URL, method: string, headers: Record<string, string>, body?: Buffer) {
  return app.inject({
    method: method as 'GET',
    url: url.pathname + url.search,
    headers: { host: url.host, ...headers },
    ...(body !== undefined && body.length > 0 ? { payload: body } : {}),
  });
}

function decode(encoding: string | undefined, bytes: Buffer): Buffer {
  // undici decodes the codings it lists, last applied first; anything else stays as sent.
  const codings = (encoding ?? '')
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter(Boolean)
    .reverse();
  return codings.reduce((data, coding) => {
    if (coding === 'gzip' || coding === 'x-gzip') return zlib.gunzipSync(data);
    if (coding === 'deflate') return zlib.inflateSync(data);
    if (coding === 'br') return zlib.brotliDecompressSync(data);
    if (coding === 'zstd') return zlib.zstdDecompressSync(data);
    return data;
  }, bytes);
}

function responseHeaders(answer: InjectResponse): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
  }
  return headers;
}

function toResponse(answer: InjectResponse, method: string, url: URL, redirected: boolean): Response {
  const noBody = method === 'HEAD' || NULL_BODY_STATUSES.has(answer.statusCode);
  const body = noBody ? null : decode(answer.headers['content-encoding'] as string | undefined, answer.rawPayload);
  const response = new Response(body === null ? null : new Uint8Array(body), {
    status: answer.statusCode,
    statusText: answer.statusMessage,
    headers: responseHeaders(answer),
  });
  Object.defineProperty(response, 'url', { value: url.toString() });
  Object.defineProperty(response, 'redirected', { value: redirected });
  return response;
}

async function injectedFetch(app: FastifyInstance, request: Request): Promise<Response> {
  request.signal.throwIfAborted();
  let url = new URL(request.url);
  let method = request.method;
  let headers: Record<string, string> = { ...FETCH_DEFAULT_HEADERS, ...Object.fromEntries(request.headers) };
  let body: Buffer | undefined = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  for (let redirects = 0; ; redirects += 1) {
    const target = appFor(url);
    // A redirect may lead away from the test app: that request goes out as fetch would send it.
    if (!target)
      return fetchOutside(new Request(url, { method, headers, ...(body ? { body: new Uint8Array(body) } : {}) }));
    const answer = await inject(target, url, method, headers, body);
    const location = answer.headers.location;
    if (request.redirect === 'manual' || !REDIRECT_STATUSES.has(answer.statusCode) || typeof location !== 'string') {
      return toResponse(answer, method, url, redirects > 0);
    }
    if (request.redirect === 'error') throw new TypeError('fetch failed: unexpected redirect');
    if (redirects === MAX_REDIRECTS) throw new TypeError('fetch failed: redirect count exceeded');
    url = new URL(location, url);
    if (answer.statusCode === 303 || ((answer.statusCode === 301 || answer.statusCode === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      headers = Object.fromEntries(
        Object.entries(headers).filter(([name]) => !name.startsWith('content-') || name === 'content-language'),
      );
    }
  }
}

let realFetch: typeof fetch | undefined;

/** Node's own fetch, over the socket, whatever is registered here (to compare the two ways). */
export const socketFetch: typeof fetch = (input, init) => (realFetch ?? globalThis.fetch)(input, init);
const fetchOutside = (request: Request) => realFetch!(request);

function installFetch() {
  if (realFetch) return;
  realFetch = globalThis.fetch;
  const original = realFetch;
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const app = appFor(url);
    if (!app) return original(input, init);
    return injectedFetch(app, new Request(input, init));
  };
}

/** Raw answer of a request to an in-process test app: the bytes as sent, nothing decoded. */
export async function injectRaw(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer } | undefined> {
  const target = new URL(url);
  const app = appFor(target);
  if (!app) return undefined;
  const answer = await inject(app, target, 'GET', headers);
  return {
    status: answer.statusCode,
    headers: answer.headers as Record<string, string | string[] | undefined>,
    body: answer.rawPayload,
  };
}
