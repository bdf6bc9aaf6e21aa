import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DISPLAY_NAME_LENGTH } from '../../src/shared/identityProtocol.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { storageDatabases } from '../support/testDatabases.ts';
import {
  expectCleanRefusal,
  expectNoServerFault,
  hasUnstorable,
  hostileText,
  rawRequest,
  send,
  type RawAnswer,
} from './hostileClient.ts';
import { signUpUser, type LoadUser } from './loadClient.ts';

/**
 * Hostile input: generated (fast-check) and hand-picked requests to every endpoint. Every
 * answer is a 4xx in the scope's error format (problem+json under /api, protocol JSON under
 * /identity) or a success; never a 500, a stack trace or a crash; and text that is stored
 * comes back exactly as sent (apart from the documented trimming).
 */

const RUNS = 60;
const generous = {
  RATE_LIMIT_SIGNIN_PER_EMAIL: '1000000',
  RATE_LIMIT_SIGNIN_PER_IP: '1000000',
  RATE_LIMIT_SIGNUP_PER_IP: '1000000',
  RATE_LIMIT_RESET_EMAIL_PER_EMAIL: '1000000',
  RATE_LIMIT_RESET_EMAIL_PER_IP: '1000000',
  RATE_LIMIT_RESET_CODE_PER_IP: '1000000',
  RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000000',
  RATE_LIMIT_PASSKEY_SIGNIN_START_PER_IP: '1000000',
  PASSKEY_ANONYMOUS_CHALLENGES_MAX: '1000000',
};

const identityPosts: Record<string, string[]> = {
  '/identity/v1/accounts:signUp': ['email', 'password', 'displayName', 'returnSecureToken'],
  '/identity/v1/accounts:signInWithPassword': ['email', 'password', 'returnSecureToken'],
  '/identity/v1/accounts:lookup': ['idToken'],
  '/identity/v1/accounts:update': ['idToken', 'email', 'password', 'displayName', 'photoUrl', 'deleteAttribute'],
  '/identity/v1/accounts:delete': ['idToken'],
  '/identity/v1/accounts:sendOobCode': ['requestType', 'email'],
  '/identity/v1/accounts:resetPassword': ['oobCode', 'newPassword'],
  '/identity/v1/token': ['grant_type', 'refresh_token'],
  '/identity/v2/accounts:revokeToken': ['token', 'tokenType'],
  '/identity/v1/passkeys:startRegistration': ['idToken'],
  '/identity/v1/passkeys:finishRegistration': ['idToken', 'credential', 'name'],
  '/identity/v1/passkeys:list': ['idToken'],
  '/identity/v1/passkeys:rename': ['idToken', 'credentialId', 'name'],
  '/identity/v1/passkeys:remove': ['idToken', 'credentialId'],
  '/identity/v1/passkeys:startSignIn': ['idToken'],
  '/identity/v1/passkeys:finishSignIn': ['credential', 'idToken'],
};

describe.each(storageDatabases())('hostile input on $dialect', (dialectCase) => {
  let server: TestApp;
  let user: LoadUser;
  let articleId: string;
  let port: number;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, generous);
    port = Number(new URL(server.url).port);
    user = await signUpUser(server.url, 'hostile');
    const created = await send(`${server.url}/api/articles`, {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.idToken}` },
      body: JSON.stringify({ image: 'https://example.com/a.jpg', title: 'Target', description: 'Target' }),
    });
    articleId = (JSON.parse(created.text) as { id: string }).id;
  });
  afterEach(async () => {
    // Whatever the last test sent, the server is still alive.
    expect((await send(`${server.url}/healthz`, { method: 'GET' })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  const jsonHeaders = (token?: string) => ({
    'content-type': 'application/json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
  const apiWrites = () => [
    { method: 'POST', path: '/api/articles' },
    { method: 'PUT', path: `/api/articles/${articleId}` },
  ];

  it('answers any JSON value sent to any endpoint without a server fault', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), async (value, withToken) => {
        const body = JSON.stringify(value);
        for (const path of Object.keys(identityPosts)) {
          expectNoServerFault(
            await send(`${server.url}${path}?key=k`, { headers: jsonHeaders(), body }),
            'identity',
            path,
          );
        }
        for (const { method, path } of apiWrites()) {
          const answer = await send(`${server.url}${path}`, {
            method,
            headers: jsonHeaders(withToken ? user.idToken : undefined),
            body,
          });
          expectCleanRefusal(answer, 'api', `${method} ${path} ${body.slice(0, 80)}`);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('answers objects with the right field names and wrong values or types without a server fault', async () => {
    for (const [path, fields] of Object.entries(identityPosts)) {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 8 })),
            fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileText(8)),
            { maxKeys: 6 },
          ),
          async (body) => {
            const answer = await send(`${server.url}${path}?key=k`, {
              headers: jsonHeaders(),
              body: JSON.stringify(body),
            });
            expectNoServerFault(answer, 'identity', `${path} ${JSON.stringify(body).slice(0, 200)}`);
          },
        ),
        { numRuns: Math.ceil(RUNS / 3) },
      );
    }
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            image: fc.oneof(fc.jsonValue({ maxDepth: 1 }), hostileText(6), fc.webUrl()),
            title: fc.oneof(fc.jsonValue({ maxDepth: 1 }), hostileText(6)),
            description: fc.oneof(fc.jsonValue({ maxDepth: 1 }), hostileText(6)),
            authorId: fc.string(),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          for (const { method, path } of apiWrites()) {
            const answer = await send(`${server.url}${path}`, {
              method,
              headers: jsonHeaders(user.idToken),
              body: JSON.stringify(body),
            });
            expectNoServerFault(answer, 'api', `${method} ${JSON.stringify(body).slice(0, 200)}`);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('answers arbitrary bytes labelled as JSON with 400', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ minLength: 1, maxLength: 200 }),
          hostileText(10).map((t) => new TextEncoder().encode(`{${t}`)),
        ),
        async (bytes) => {
          for (const path of ['/identity/v1/accounts:signUp', '/identity/v1/token']) {
            expectCleanRefusal(
              await send(`${server.url}${path}`, { headers: jsonHeaders(), body: bytes }),
              'identity',
              path,
            );
          }
          expectCleanRefusal(
            await send(`${server.url}/api/articles`, { headers: jsonHeaders(user.idToken), body: bytes }),
            'api',
            'POST /api/articles',
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('stores article text byte for byte, refusing only NUL and lone surrogates', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(12), hostileText(30), async (title, description) => {
        const body = { image: 'https://images.example.com/x.jpg', title, description };
        const answer = await send(`${server.url}/api/articles`, {
          headers: jsonHeaders(user.idToken),
          body: JSON.stringify(body),
        });
        const what = `title ${JSON.stringify(title)} description ${JSON.stringify(description)}`;
        const trimmedTitle = title.trim();
        const trimmedDescription = description.trim();
        if (
          hasUnstorable(title) ||
          hasUnstorable(description) ||
          trimmedTitle === '' ||
          trimmedDescription === '' ||
          [...trimmedTitle].length > 200
        ) {
          expectCleanRefusal(answer, 'api', what);
          expect(answer.status, what).toBe(400);
          const fields = (JSON.parse(answer.text) as { errors: { field: string }[] }).errors.map((e) => e.field);
          if (hasUnstorable(title)) expect(fields, what).toContain('title');
          if (hasUnstorable(description)) expect(fields, what).toContain('description');
          return;
        }
        expect(answer.status, `${what}: ${answer.text}`).toBe(201);
        const { id } = JSON.parse(answer.text) as { id: string };
        const read = JSON.parse((await send(`${server.url}/api/articles/${id}`, { method: 'GET' })).text) as {
          title: string;
          description: string;
        };
        expect(read.title, what).toBe(trimmedTitle);
        expect(read.description, what).toBe(trimmedDescription);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('stores a display name byte for byte, or refuses it with a protocol error', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(10), async (displayName) => {
        const answer = await send(`${server.url}/identity/v1/accounts:update?key=k`, {
          headers: jsonHeaders(),
          body: JSON.stringify({ idToken: user.idToken, displayName }),
        });
        const what = `displayName ${JSON.stringify(displayName)}`;
        const trimmed = displayName.trim();
        if (hasUnstorable(displayName) || trimmed.length > MAX_DISPLAY_NAME_LENGTH) {
          expectCleanRefusal(answer, 'identity', what);
          expect(JSON.parse(answer.text).error.message, what).toBe('INVALID_DISPLAY_NAME');
          return;
        }
        expect(answer.status, `${what}: ${answer.text}`).toBe(200);
        const lookup = await send(`${server.url}/identity/v1/accounts:lookup?key=k`, {
          headers: jsonHeaders(),
          body: JSON.stringify({ idToken: user.idToken }),
        });
        const stored = (JSON.parse(lookup.text) as { users: { displayName?: string }[] }).users[0]!.displayName;
        expect(stored ?? '', what).toBe(trimmed);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers any query and path on the read endpoints without a server fault', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(6), hostileText(6), hostileText(6), async (limit, cursor, id) => {
        const list = await send(
          `${server.url}/api/articles?limit=${encodeURIComponent(limit.toWellFormed())}&cursor=${encodeURIComponent(cursor.toWellFormed())}`,
          { method: 'GET' },
        );
        expectNoServerFault(list, 'api', `limit ${JSON.stringify(limit)} cursor ${JSON.stringify(cursor)}`);
        const one = await send(`${server.url}/api/articles/${encodeURIComponent(id.toWellFormed())}`, {
          method: 'GET',
        });
        expectNoServerFault(one, 'api', `id ${JSON.stringify(id)}`);
        for (const method of ['PUT', 'DELETE']) {
          const write = await send(`${server.url}/api/articles/${encodeURIComponent(id.toWellFormed())}`, {
            method,
            headers: jsonHeaders(user.idToken),
            body: JSON.stringify({ image: 'https://a.example/x', title: 't', description: 'd' }),
          });
          expectNoServerFault(write, 'api', `${method} id ${JSON.stringify(id)}`);
        }
      }),
      { numRuns: RUNS },
    );
  });

  describe('a fixed corpus', () => {
    const deepArray = '['.repeat(30_000) + ']'.repeat(30_000);
    const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const corpus: [string, string][] = [
      ['deeply nested array', deepArray],
      ['deeply nested object', deepObject],
      ['prototype pollution', '{"__proto__":{"admin":true},"title":"x"}'],
      ['constructor pollution', '{"constructor":{"prototype":{"admin":true}}}'],
      ['duplicate keys', '{"title":"a","title":"b"}'],
      ['NUL in JSON', '{"email":"a\\u0000@example.com","password":"x\\u0000y"}'],
      ['lone surrogates', '{"email":"\\ud800@example.com","title":"\\udfff","displayName":"\\ud83d"}'],
      ['huge number', '{"title":1e999999,"limit":-1e309}'],
      ['huge string', JSON.stringify({ title: 'x'.repeat(60_000), email: 'a'.repeat(60_000) })],
      ['truncated', '{"title":"abc'],
      ['trailing garbage', '{"title":"abc"} xyz'],
      ['not an object', '"just a string"'],
      ['null', 'null'],
      ['empty', ''],
      ['BOM', '\uFEFF{"title":"x"}'],
      ['RTL override email', '{"email":"\\u202Emoc.elpmaxe@evil","password":"secret-1"}'],
    ];
    for (const [name, body] of corpus) {
      it(`refuses ${name} cleanly everywhere`, async () => {
        for (const path of Object.keys(identityPosts)) {
          expectNoServerFault(
            await send(`${server.url}${path}?key=k`, { headers: jsonHeaders(), body }),
            'identity',
            `${name} → ${path}`,
          );
        }
        for (const { method, path } of apiWrites()) {
          expectCleanRefusal(
            await send(`${server.url}${path}`, { method, headers: jsonHeaders(user.idToken), body }),
            'api',
            `${name} → ${method} ${path}`,
          );
        }
      });
    }

    it('refuses image and photo URLs other than http(s), whatever their spelling', async () => {
      const urls = [
        'javascript:alert(1)',
        'JaVaScRiPt:alert(1)',
        ' javascript:alert(1)',
        'java\tscript:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
        'vbscript:msgbox(1)',
        'file:///etc/passwd',
        'ftp://example.com/a.jpg',
        '//evil.example/a.jpg',
        '/relative/a.jpg',
        'https:',
        'https://',
        'http://exa mple.com/a.jpg',
        'https://example.com/a.jpg\n<script>',
      ];
      for (const image of urls) {
        const answer = await send(`${server.url}/api/articles`, {
          headers: jsonHeaders(user.idToken),
          body: JSON.stringify({ image, title: 'Image', description: 'Image' }),
        });
        expectCleanRefusal(answer, 'api', `image ${JSON.stringify(image)}`);
        expect((JSON.parse(answer.text) as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual([
          'image',
        ]);
        const photo = await send(`${server.url}/identity/v1/accounts:update?key=k`, {
          headers: jsonHeaders(),
          body: JSON.stringify({ idToken: user.idToken, photoUrl: image.trim() }),
        });
        expectCleanRefusal(photo, 'identity', `photoUrl ${JSON.stringify(image)}`);
        expect(JSON.parse(photo.text).error.message).toBe('INVALID_PHOTO_URL');
      }
    });

    it('answers bodies over 64 KiB with 413 in each scope', async () => {
      const big = JSON.stringify({ title: 'x'.repeat(70_000) });
      const identity = await send(`${server.url}/identity/v1/accounts:signUp`, { headers: jsonHeaders(), body: big });
      expectCleanRefusal(identity, 'identity', 'identity 413');
      expect(identity.status).toBe(413);
      const api = await send(`${server.url}/api/articles`, { headers: jsonHeaders(user.idToken), body: big });
      expectCleanRefusal(api, 'api', 'api 413');
      expect(api.status).toBe(413);
    });

    it('answers wrong content types with 415 (or a protocol error for form bodies on /identity)', async () => {
      const types = [
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/jsonx',
        'image/png',
        'application/json; charset=utf-16',
      ];
      for (const type of types) {
        const api = await send(`${server.url}/api/articles`, {
          headers: { 'content-type': type, authorization: `Bearer ${user.idToken}` },
          body: '{"title":"x"}',
        });
        expectCleanRefusal(api, 'api', `api ${type}`);
        const identity = await send(`${server.url}/identity/v1/accounts:signUp`, {
          headers: { 'content-type': type },
          body: '{"email":"x"}',
        });
        expectCleanRefusal(identity, 'identity', `identity ${type}`);
      }
      for (const body of ['email[]=a&email[]=b&password[x]=1', 'email=%ZZ&password=%00', '=&&==&']) {
        const form = await send(`${server.url}/identity/v1/accounts:signUp`, {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        expectNoServerFault(form, 'identity', `form ${body}`);
      }
      const noType = await send(`${server.url}/api/articles`, {
        headers: { authorization: `Bearer ${user.idToken}` },
        body: new Uint8Array([1, 2, 3]),
      });
      expectCleanRefusal(noType, 'api', 'no content type');
    });

    it('answers unknown methods and paths in each scope with its own 4xx', async () => {
      for (const method of ['PATCH', 'OPTIONS', 'DELETE', 'PUT']) {
        expectCleanRefusal(await send(`${server.url}/api/articles`, { method }), 'api', `${method} /api/articles`);
        expectCleanRefusal(
          await send(`${server.url}/identity/v1/accounts:signUp`, { method }),
          'identity',
          `${method} signUp`,
        );
      }
      expectCleanRefusal(
        await send(`${server.url}/api/%00%ff..%2f..%2fetc/passwd`, { method: 'GET' }),
        'api',
        'traversal',
      );
      expectCleanRefusal(
        await send(`${server.url}/identity/v1/accounts:nothing`, { method: 'POST' }),
        'identity',
        'unknown identity path',
      );
    });

    it('never reflects CR/LF from a request into a response header', async () => {
      const injected = '%0d%0aSet-Cookie:%20injected=1%0d%0aX-Injected:%201';
      for (const path of [
        `/api/articles/${injected}`,
        `/api/${injected}`,
        `/identity/v1/accounts:lookup?key=${injected}`,
        `/${injected}`,
      ]) {
        const answer: RawAnswer = await send(`${server.url}${path}`, { method: 'GET' });
        expect(answer.status, path).toBeLessThan(500);
        expect(answer.headers.get('x-injected'), path).toBeNull();
        expect(answer.headers.get('set-cookie') ?? '', path).not.toContain('injected');
      }
    });

    it('refuses malformed requests at the HTTP layer without harm', async () => {
      const requests = [
        // CR or LF or NUL inside a header value: fetch refuses to send these, a raw socket does not.
        `GET /api/articles HTTP/1.1\r\nHost: x\r\nX-Evil: a\rSet-Cookie: b\r\n\r\n`,
        `GET /api/articles HTTP/1.1\r\nHost: x\r\nX-Evil: a\u0000b\r\n\r\n`,
        `POST /api/articles HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \u00ff\u00fe\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
        `POST /identity/v1/accounts:lookup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{"a":1}`,
        `POST /api/articles HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n`,
        `GET /api/articles HTTP/1.1\r\nHost: x\r\nX-Long: ${'a'.repeat(20_000)}\r\n\r\n`,
        `GET /api/articles HTTP/9.9\r\nHost: x\r\n\r\n`,
        `GARBAGE\r\n\r\n`,
        `POST /identity/v1/token HTTP/1.1\r\nHost: x\r\nX-Inkwell-Session: cookie\r\nCookie: inkwell_session=%E0%A4%A\r\nContent-Type: application/json\r\nContent-Length: 30\r\nConnection: close\r\n\r\n{"grant_type":"refresh_token"}`,
      ];
      for (const request of requests) {
        const answer = await rawRequest(port, Buffer.from(request, 'latin1'));
        const what = JSON.stringify(request.slice(0, 90));
        // 0: the server hung up on bytes that are not HTTP - also a refusal.
        if (answer.status !== 0) {
          expect(answer.status, what).toBeGreaterThanOrEqual(400);
          expect(answer.status, what).toBeLessThan(500);
        }
        expect(answer.text, what).not.toMatch(/\bat [\w$.<>]+ \(|node_modules|\.ts:\d+/);
        expect(answer.text, what).not.toMatch(/\r\nSet-Cookie: b/i);
      }
    });
  });
});
