import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../../../test/support/testOidcProvider.ts';

/**
 * Issue 35, finding 6 (decision 0561): NUL, a lone surrogate or a 10,000-character value, in
 * any path segment, query parameter or JSON field of any route, anonymous or signed in, on
 * either database, is answered 4xx (400, or 404 where no route is named), never 5xx.
 *
 * The routes come from Fastify's own route table (printRoutes), so a route added later is
 * sent the same values without this file changing. A route's parameters, query and body get
 * the hostile value everywhere at once; then, for the writes whose bodies are known below,
 * each field of an otherwise valid body in turn, so that a long value reaches the storage a
 * valid request reaches.
 */

const PUBLIC_URL = 'http://localhost:3997';
const PROVIDER = 'oidc.test';

interface Hostile {
  label: string;
  /** The value in JSON and query strings. */
  value: string;
  /** The value as a path segment or query value on the wire. */
  encoded: string;
}

const LONG = 'x'.repeat(10_000);
const HOSTILE: Hostile[] = [
  { label: 'NUL', value: 'a\u0000b', encoded: 'a%00b' },
  // A lone surrogate has no UTF-8 form: on the wire it is the bytes of its WTF-8 encoding.
  { label: 'lone surrogate', value: 'a\ud800b', encoded: 'a%ED%A0%80b' },
  { label: '10,000 characters', value: LONG, encoded: LONG },
  { label: 'lone low surrogate', value: '\udc00', encoded: '%ED%B0%80' },
];

/** Query names any route reads (a route ignores the others, or refuses them). */
const QUERY_NAMES = [
  'q',
  'cursor',
  'limit',
  'continue',
  'state',
  'code',
  'error',
  'key',
  'tag',
  'author',
  'status',
  'mode',
  'oobCode',
  'apiKey',
  'lang',
  'page',
  'include',
  'role',
  'action',
  'uid',
  'before',
  'after',
];

/** Every body field name of the protocol and the API, for the everything-at-once bodies. */
const BODY_NAMES = [
  'email',
  'password',
  'displayName',
  'photoUrl',
  'idToken',
  'refresh_token',
  'grant_type',
  'token',
  'tokenType',
  'requestType',
  'oobCode',
  'newPassword',
  'newEmail',
  'deleteAttribute',
  'localId',
  'credentialId',
  'credential',
  'name',
  'title',
  'description',
  'body',
  'image',
  'tags',
  'status',
  'authorId',
  'reason',
  'note',
  'role',
  'uid',
  'code',
  'continue',
  'postBody',
  'requestUri',
  'sessionInfo',
  'mfaPendingCredential',
  'mfaEnrollmentId',
  'verificationCode',
  'totpEnrollmentInfo',
  'totpVerificationInfo',
  'disabled',
  'action',
  'identifier',
  'continueUri',
  'providerId',
  'id',
  'bio',
  'slug',
  'returnSecureToken',
];

interface Route {
  method: string;
  /** With :params and * as Fastify has them. */
  url: string;
}

/** The route table as Fastify prints it (commonPrefix: false), flattened to method and URL. */
function routeTable(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const url = stack.join('').replace(/^\/+/, '/');
    for (const method of match[3]!.split(', ')) {
      if (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) routes.push({ method, url });
    }
  }
  return routes;
}

describe.each(storageDatabases())('hostile values through every route on $dialect', (dialectCase) => {
  let provider: TestOidcProvider;
  let server: TestApp;
  let owner: { uid: string; idToken: string; refreshToken: string; email: string };
  let reader: { idToken: string };
  let articleId: string;
  let routes: Route[];

  async function newArticle() {
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/articles',
      headers: { authorization: `Bearer ${owner.idToken}` },
      payload: {
        image: 'https://images.example.com/a.jpg',
        title: 'Fuzz target',
        description: 'Fuzz target',
        status: 'published',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<{ id: string }>().id;
  }

  beforeAll(async () => {
    provider = await startTestOidcProvider({ redirectUris: [`${PUBLIC_URL}/identity/oauth/${PROVIDER}/callback`] });
    server = await startTestApp(dialectCase, {
      PUBLIC_URL,
      RATE_LIMIT_SIGNIN_PER_EMAIL: '1000000',
      RATE_LIMIT_SIGNIN_PER_IP: '1000000',
      RATE_LIMIT_SIGNUP_PER_IP: '1000000',
      RATE_LIMIT_RESET_EMAIL_PER_EMAIL: '1000000',
      RATE_LIMIT_RESET_EMAIL_PER_IP: '1000000',
      RATE_LIMIT_RESET_CODE_PER_IP: '1000000',
      RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000000',
      RATE_LIMIT_PASSKEY_SIGNIN_START_PER_IP: '1000000',
      PASSKEY_ANONYMOUS_CHALLENGES_MAX: '1000000',
      ...provider.env('TEST', 'Test ID'),
    });
    const email = `fuzz-owner-${Date.now()}@example.com`;
    const signedUp = await server.app.inject({
      method: 'POST',
      url: '/identity/v1/accounts:signUp?key=k',
      payload: { email, password: 'correct horse battery staple', displayName: 'Fuzz', returnSecureToken: true },
    });
    const body = signedUp.json<{ localId: string; idToken: string; refreshToken: string }>();
    owner = { uid: body.localId, idToken: body.idToken, refreshToken: body.refreshToken, email };
    // The owner reaches every route a role opens (members, invitations, audit, reports).
    await setRole(server, email, 'owner');
    const readerAnswer = await server.app.inject({
      method: 'POST',
      url: '/identity/v1/accounts:signUp?key=k',
      payload: {
        email: `fuzz-reader-${Date.now()}@example.com`,
        password: 'correct horse battery staple',
        returnSecureToken: true,
      },
    });
    reader = readerAnswer.json<{ idToken: string }>();
    articleId = await newArticle();
    routes = routeTable(server.app);
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  /** A real value for each path parameter, so that one hostile parameter is not refused for another. */
  const realParam = (name: string) =>
    ({ id: articleId, uid: owner.uid, key: owner.uid, providerId: PROVIDER, slug: 'fuzz', name: 'a.jpg' })[name] ?? 'x';

  /** The route's URL with the parameter at `hostileAt` (or every one, -1) replaced by `encoded`. */
  function fill(url: string, encoded: string, hostileAt: number): string {
    let index = -1;
    return url.replace(/:([A-Za-z]+)(\|:[A-Za-z]+)*|\*/g, (whole, name: string | undefined) => {
      index += 1;
      if (hostileAt === -1 || hostileAt === index) return encoded;
      return name ? realParam(name) : 'x';
    });
  }

  const failures: string[] = [];
  async function send(
    what: string,
    options: { method: string; url: string; payload?: unknown; token?: string; contentType?: string },
  ) {
    const answer = await server.app.inject({
      method: options.method as 'GET',
      url: options.url,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.payload !== undefined ? { 'content-type': options.contentType ?? 'application/json' } : {}),
      },
      ...(options.payload !== undefined
        ? { payload: typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload) }
        : {}),
    });
    if (answer.statusCode >= 500) failures.push(`${answer.statusCode} ${what}: ${answer.body.slice(0, 160)}`);
    return answer;
  }

  it('names a field called like an Object.prototype member with a protocol code (found by the reliability property)', async () => {
    const answer = await send('toString field', {
      method: 'POST',
      url: '/identity/v1/token?key=k',
      payload: { toString: '\u0000' },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json<{ error: { message: string } }>().error.message).toMatch(/^[A-Z_]+( : .+)?$/);
  });

  it('finds the route families in the route table', () => {
    const urls = new Set(routes.map((route) => route.url));
    for (const family of [
      '/identity/v1/accounts:signUp',
      '/identity/v1/token',
      '/identity/v1/passkeys:finishRegistration',
      '/identity/v2/accounts/mfaSignIn:finalize',
      '/identity/oauth/:providerId/callback',
      '/api/articles/:id',
      '/api/tags',
      '/api/search',
      '/api/members/:uid',
      '/api/invitations/:id',
      '/api/reports/:id/resolve',
      '/api/audit',
      '/images/:id/:name',
      '/author/:slug',
      '/tag/:slug/feed.xml',
      '/article/:id',
      '/feed.xml',
    ]) {
      expect(urls, family).toContain(family);
    }
  });

  it('answers NUL, lone surrogates and 10,000 characters in paths, queries and bodies with 4xx, signed in or not', async () => {
    failures.length = 0;
    for (const hostile of HOSTILE) {
      const query = QUERY_NAMES.map((name) => `${name}=${hostile.encoded}`).join('&');
      const everywhere = Object.fromEntries(BODY_NAMES.map((name) => [name, hostile.value]));
      const nested = { credential: { id: hostile.value, response: { clientDataJSON: hostile.value } } };
      for (const token of [undefined, owner.idToken]) {
        const who = token ? 'owner' : 'anonymous';
        for (const route of routes) {
          const params = (route.url.match(/:[A-Za-z]+(\|:[A-Za-z]+)*|\*/g) ?? []).length;
          const withBody = route.method !== 'GET';
          const what = (part: string) => `${route.method} ${route.url} ${part} ${hostile.label} ${who}`;
          for (let at = -1; at < params; at += 1) {
            await send(what(`param ${at}`), { method: route.method, url: fill(route.url, hostile.encoded, at), token });
          }
          const url = fill(route.url, 'x', -2);
          await send(what('query'), { method: route.method, url: `${url}?${query}`, token });
          await send(what('query name'), { method: route.method, url: `${url}?${hostile.encoded}=1`, token });
          // One parameter alone, where a strict query would refuse the others first (NUL: the
          // value PostgreSQL faulted on; length is the same rule for every name).
          if (route.method === 'GET' && hostile.label === 'NUL') {
            for (const name of QUERY_NAMES) {
              await send(what(`query ${name}`), {
                method: route.method,
                url: `${url}?${name}=${hostile.encoded}`,
                token,
              });
            }
          }
          if (!withBody) continue;
          for (const payload of [everywhere, nested, { [hostile.value]: 1 }, [hostile.value], hostile.value]) {
            await send(what(`body ${JSON.stringify(payload).slice(0, 40)}`), {
              method: route.method,
              url,
              payload,
              token,
            });
          }
          if (route.url.startsWith('/identity/')) {
            await send(what('form body'), {
              method: route.method,
              url,
              payload: new URLSearchParams(everywhere).toString(),
              contentType: 'application/x-www-form-urlencoded',
              token,
            });
          }
        }
      }
    }
    expect(failures.join('\n')).toBe('');
    // About 4 s alone; several thousand requests, so room for a machine busy with the whole suite.
  }, 240_000);

  it('answers a hostile value in each field of an otherwise valid write with 4xx (or stores it)', async () => {
    failures.length = 0;
    // The first test deleted the target with DELETE /api/articles/:id: a new one.
    articleId = await newArticle();
    const bodies = validBodies();
    for (const [route, make] of Object.entries(bodies)) {
      const [method, path] = route.split(' ') as [string, string];
      expect(
        routes.some((known) => known.method === method && fill(known.url, '', -2) === fill(path, '', -2)),
        route,
      ).toBe(true);
      for (const field of Object.keys(make())) {
        for (const hostile of HOSTILE) {
          const body = { ...make(), [field]: hostile.value };
          await send(`${route} ${field}=${hostile.label}`, {
            method,
            url: fill(path, 'x', -2),
            payload: body,
            // A report is made by someone other than the author.
            token: path.endsWith('/reports') ? reader.idToken : owner.idToken,
          });
        }
      }
    }
    expect(failures.join('\n')).toBe('');
  }, 120_000);

  it('keeps legitimate long text: a description of 15,000 characters is stored', async () => {
    articleId = await newArticle();
    const answer = await server.app.inject({
      method: 'PUT',
      url: `/api/articles/${articleId}`,
      headers: { authorization: `Bearer ${owner.idToken}` },
      payload: { image: 'https://images.example.com/a.jpg', title: 'Long', description: 'word '.repeat(3000).trim() },
    });
    expect(answer.statusCode, answer.body).toBe(200);
  });

  /** Valid bodies for the writes that store text, keyed "METHOD /path" (the path with real ids). */
  function validBodies(): Record<string, () => Record<string, unknown>> {
    let n = 0;
    const email = () => `fuzz-${Date.now()}-${(n += 1)}@example.com`;
    return {
      'POST /identity/v1/accounts:signUp': () => ({
        email: email(),
        password: 'correct horse battery',
        displayName: 'F',
        returnSecureToken: true,
      }),
      'POST /identity/v1/accounts:signInWithPassword': () => ({
        email: owner.email,
        password: 'wrong password here',
        returnSecureToken: true,
      }),
      'POST /identity/v1/accounts:update': () => ({
        idToken: owner.idToken,
        displayName: 'Fuzz',
        photoUrl: 'https://images.example.com/p.jpg',
      }),
      'POST /identity/v1/accounts:sendOobCode': () => ({ requestType: 'PASSWORD_RESET', email: email() }),
      'POST /identity/v1/accounts:resetPassword': () => ({ oobCode: 'nope', newPassword: 'correct horse battery' }),
      'POST /identity/v1/accounts:lookup': () => ({ idToken: owner.idToken }),
      'POST /identity/v1/token': () => ({ grant_type: 'refresh_token', refresh_token: 'nope' }),
      'POST /identity/v1/passkeys:rename': () => ({ idToken: owner.idToken, credentialId: 'abc', name: 'Key' }),
      'POST /identity/v1/passkeys:remove': () => ({ idToken: owner.idToken, credentialId: 'abc' }),
      'POST /identity/v2/accounts/mfaSignIn:finalize': () => ({
        mfaPendingCredential: 'nope',
        totpVerificationInfo: { verificationCode: '123456' },
      }),
      'POST /identity/v1/accounts:signInWithIdp': () => ({
        requestUri: 'http://localhost',
        postBody: 'id_token=x&providerId=oidc.test',
        returnSecureToken: true,
      }),
      'POST /api/articles': () => ({
        image: 'https://images.example.com/a.jpg',
        title: 'T',
        description: 'D',
        tags: ['fuzz'],
      }),
      [`PUT /api/articles/${articleId}`]: () => ({
        image: 'https://images.example.com/a.jpg',
        title: 'T',
        description: 'D',
        tags: ['fuzz'],
      }),
      [`POST /api/articles/${articleId}/reports`]: () => ({ reason: 'spam', note: 'a note' }),
      [`PUT /api/authors/${owner.uid}`]: () => ({ bio: 'A bio' }),
      'POST /api/invitations': () => ({ role: 'editor', email: email() }),
      'POST /api/invitations/check': () => ({ code: 'nope' }),
      [`PATCH /api/members/${owner.uid}`]: () => ({ role: 'owner' }),
      [`POST /api/articles/${articleId}/hide`]: () => ({ reason: 'a reason' }),
    };
  }
});
