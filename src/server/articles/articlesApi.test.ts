import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { articleDetailSchema } from '../../shared/articleSchema.ts';
import { rawGet } from '../../../test/support/rawGet.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { articlesTestApp, sampleArticle, type Answer } from '../../../test/support/articlesTestClient.ts';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

function expectProblem(answer: Answer, status: number) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toBe(PROBLEM_JSON);
  expect(answer.body).toMatchObject({ type: 'about:blank', status, title: expect.any(String) });
  expect(answer.body.detail).toEqual(expect.any(String));
  expect(answer.text).not.toMatch(/at .+\.ts:\d+/);
}

function expectFieldError(answer: Answer, field: string, message: string | RegExp) {
  expectProblem(answer, 400);
  expect(answer.body.errors).toEqual(expect.arrayContaining([{ field, message: expect.stringMatching(message) }]));
}

describe.each(contractDatabases())('the articles API on $dialect', (dialectCase) => {
  const app = articlesTestApp(dialectCase);

  const countArticles = async () => {
    let count = 0;
    let cursor: string | null = null;
    do {
      const page: Answer = await app.api.list(`?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      count += page.body.articles.length;
      cursor = page.body.nextCursor;
    } while (cursor);
    return count;
  };

  it('creates an article: 201, Location, the article with server-set id, author and date', async () => {
    const before = Date.now();
    const created = await app.api.create(app.alice.idToken, {
      image: ' https://images.example.com/a.jpg ',
      title: '  First post  ',
      description: '\n Hello there. \n',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    const article = articleDetailSchema.parse(created.body);
    expect(article.id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(created.headers.get('location')).toBe(`/api/articles/${article.id}`);
    expect(article).toEqual({
      id: article.id,
      image: 'https://images.example.com/a.jpg',
      title: 'First post',
      description: 'Hello there.',
      excerpt: 'Hello there.',
      descriptionHtml: '<p>Hello there.</p>\n',
      customExcerpt: null,
      authorId: app.alice.uid,
      authorName: 'Alice',
      authorSlug: 'alice',
      authorPhotoUrl: null,
      date: article.date,
      tags: [],
      status: 'published',
    });
    expect(article.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const date = Date.parse(article.date);
    expect(date).toBeGreaterThanOrEqual(before - 1);
    expect(date).toBeLessThanOrEqual(Date.now() + 1);

    const fetched = await app.api.get(article.id);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(article);
    expect(fetched.headers.get('cache-control')).toBe('no-cache');

    const listed = await app.api.list();
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-cache');
    // Lists carry the excerpt, not the rendered body (only the article page shows it).
    const { descriptionHtml: _body, customExcerpt: _own, ...listItem } = article;
    expect(listed.body.articles).toContainEqual(listItem);
  });

  it('gives every article a different random id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await app.api.create(app.alice.idToken, sampleArticle(`Id ${i}`))).body.id);
    expect(ids.size).toBe(5);
  });

  it('stores and returns text exactly as sent apart from trimming the ends', async () => {
    const text = {
      image: 'https://example.com/p%C3%A4th/ü.png?q=<x>&a="b"#frag',
      title: '<script>alert("x")</script> — ünïcödé 👩‍💻 \u202e',
      description: 'Line one\n\n  indented <b>bold</b> & "quotes" \' \\ \u0001 😀\r\nend',
    };
    const created = await app.api.create(app.alice.idToken, text);
    expect(created.status, created.text).toBe(201);
    const fetched = await app.api.get(created.body.id);
    expect(fetched.body.image).toBe(text.image);
    expect(fetched.body.title).toBe(text.title);
    expect(fetched.body.description).toBe(text.description);
  });

  it('accepts the longest allowed values', async () => {
    const created = await app.api.create(app.alice.idToken, {
      image: `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`,
      title: 't'.repeat(200),
      description: 'd'.repeat(20000),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.title).toHaveLength(200);
    expect(created.body.image).toHaveLength(2048);
    expect(created.body.description).toHaveLength(20000);
  });

  const valid = sampleArticle('Validation');
  it.each([
    [
      'a javascript: image URL',
      { ...valid, image: 'javascript:alert(1)' },
      'image',
      'Image URL must be an http:// or https:// address.',
    ],
    [
      'a data: image URL',
      { ...valid, image: 'data:image/png;base64,iVBORw0KGgo=' },
      'image',
      'Image URL must be an http:// or https:// address.',
    ],
    [
      'a relative image URL',
      { ...valid, image: '/images/a.png' },
      'image',
      'Image URL must be an http:// or https:// address.',
    ],
    [
      'a scheme-relative image URL',
      { ...valid, image: '//example.com/a.png' },
      'image',
      'Image URL must be an http:// or https:// address.',
    ],
    [
      'an ftp: image URL',
      { ...valid, image: 'ftp://example.com/a.png' },
      'image',
      'Image URL must be an http:// or https:// address.',
    ],
    [
      'an image URL with a hidden newline',
      { ...valid, image: 'java\nscript:alert(1)' },
      'image',
      'Image URL must be an http:// or https:// address.',
    ],
    [
      'a 2049-character image URL',
      { ...valid, image: `https://example.com/${'a'.repeat(2049 - 20)}` },
      'image',
      'Image URL must be at most 2048 characters.',
    ],
    ['an empty title', { ...valid, title: '' }, 'title', 'Title is required.'],
    ['a whitespace title', { ...valid, title: ' \n\t ' }, 'title', 'Title is required.'],
    ['a 201-character title', { ...valid, title: 't'.repeat(201) }, 'title', 'Title must be at most 200 characters.'],
    ['a whitespace description', { ...valid, description: '   ' }, 'description', 'Description is required.'],
    [
      'a 20001-character description',
      { ...valid, description: 'd'.repeat(20001) },
      'description',
      'Description must be at most 20000 characters.',
    ],
    [
      'a NUL character',
      { ...valid, description: 'a\u0000b' },
      'description',
      /^description contains a character that cannot be stored/,
    ],
    ['a lone surrogate', { ...valid, title: 'a\ud800b' }, 'title', /^title contains a character that cannot be stored/],
    ['a missing image', { title: 'T', description: 'D' }, 'image', 'Image URL is required.'],
    ['a numeric title', { ...valid, title: 42 }, 'title', 'Title must be text.'],
    ['a null description', { ...valid, description: null }, 'description', 'Description must be text.'],
    ['an array image', { ...valid, image: ['https://example.com/a.png'] }, 'image', 'Image URL must be text.'],
    ['an authorId', { ...valid, authorId: 'someone-else' }, 'authorId', /authorId cannot be set/],
    ['a date', { ...valid, date: '2001-01-01T00:00:00.000Z' }, 'date', /date cannot be set/],
    ['an id', { ...valid, id: 'AAAAAAAAAAAAAAAAAAAA' }, 'id', /id cannot be set/],
    ['any other field', { ...valid, featured: true }, 'featured', /featured cannot be set/],
    ['an array body', [valid], 'body', /must be an object/],
    ['a string body', 'hello', 'body', /must be an object/],
    ['a null body', null, 'body', /must be an object/],
  ])('rejects %s with a field error and stores nothing', async (_label, body, field, message) => {
    const before = await countArticles();
    expectFieldError(await app.api.create(app.alice.idToken, body), field, message);
    expect(await countArticles()).toBe(before);
  });

  it('reports every invalid field at once', async () => {
    const answer = await app.api.create(app.alice.idToken, { image: 'nope', title: '', description: 5 });
    expectProblem(answer, 400);
    expect(answer.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      'description',
      'image',
      'title',
    ]);
  });

  it('rejects invalid JSON, non-JSON bodies and bodies over 64 KiB', async () => {
    const before = await countArticles();
    const post = (raw: string, contentType?: string) =>
      app.api.request('POST', '/articles', {
        token: app.alice.idToken,
        raw,
        headers: contentType ? { 'content-type': contentType } : {},
      });
    expectProblem(await post('{"title": ', 'application/json'), 400);
    expectProblem(await post(JSON.stringify(valid), 'text/plain'), 415);
    expectProblem(await post('image=x&title=y&description=z', 'application/x-www-form-urlencoded'), 415);
    expectProblem(await post(JSON.stringify(valid), 'application/xml'), 415);
    const huge = JSON.stringify({ ...valid, description: 'd'.repeat(65 * 1024) });
    expectProblem(await post(huge, 'application/json'), 413);
    expectProblem(
      await post('{"__proto__": {"x": 1}, "image": "https://e.com/a", "title": "t"}', 'application/json'),
      400,
    );
    expect(await countArticles()).toBe(before);
  });

  it('answers 401 with WWW-Authenticate when the token is missing or refused', async () => {
    const missing = await app.api.create(undefined, valid);
    expectProblem(missing, 401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');

    for (const authorization of ['Bearer not-a-token', 'Bearer a.b.c', `Basic ${btoa('a:b')}`, 'Bearer']) {
      const refused = await app.api.request('POST', '/articles', { json: valid, headers: { authorization } });
      expectProblem(refused, 401);
      expect(refused.headers.get('www-authenticate'), authorization).toBe('Bearer error="invalid_token"');
    }
    // A token with its signature tampered with.
    const [header, payload] = app.alice.idToken.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(342)}`;
    expectProblem(await app.api.create(forged, valid), 401);

    const { body: article } = await app.api.create(app.alice.idToken, valid);
    expectProblem(await app.api.update(undefined, article.id, valid), 401);
    expectProblem(await app.api.remove('garbage', article.id), 401);
    expect((await app.api.get(article.id)).body).toEqual(article);
  });

  it('lets the author edit: 200, fields replaced and trimmed, id, author and date unchanged', async () => {
    const { body: original } = await app.api.create(app.alice.idToken, sampleArticle('Before'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await app.api.update(app.alice.idToken, original.id, {
      image: 'http://cdn.example.org/b.png',
      title: ' After ',
      description: ' New text ',
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({
      ...original,
      image: 'http://cdn.example.org/b.png',
      title: 'After',
      description: 'New text',
      excerpt: 'New text',
      descriptionHtml: '<p>New text</p>\n',
    });
    expect((await app.api.get(original.id)).body).toEqual(updated.body);
  });

  it('validates edits like new articles and rejects server-set fields', async () => {
    const { body: original } = await app.api.create(app.alice.idToken, sampleArticle('Strict'));
    expectFieldError(
      await app.api.update(app.alice.idToken, original.id, { ...valid, date: '1999-01-01T00:00:00Z' }),
      'date',
      /cannot be set/,
    );
    expectFieldError(
      await app.api.update(app.alice.idToken, original.id, { ...valid, authorId: app.bob.uid }),
      'authorId',
      /cannot be set/,
    );
    expectFieldError(
      await app.api.update(app.alice.idToken, original.id, { ...valid, title: ' ' }),
      'title',
      'Title is required.',
    );
    expect((await app.api.get(original.id)).body).toEqual(original);
  });

  it('refuses to let another user edit or delete an article: 403 and the article unchanged', async () => {
    const created = await app.api.create(app.alice.idToken, sampleArticle("Alice's own"));
    const before = await app.api.get(created.body.id);

    expectProblem(await app.api.update(app.bob.idToken, created.body.id, sampleArticle('Hijacked')), 403);
    expectProblem(await app.api.remove(app.bob.idToken, created.body.id), 403);

    const after = await app.api.get(created.body.id);
    expect(after.status).toBe(200);
    expect(after.text).toBe(before.text);
  });

  it('lets the author delete: 204, then the article is gone', async () => {
    const { body: article } = await app.api.create(app.alice.idToken, sampleArticle('Short-lived'));
    const deleted = await app.api.remove(app.alice.idToken, article.id);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectProblem(await app.api.get(article.id), 404);
    expectProblem(await app.api.remove(app.alice.idToken, article.id), 404);
    expectProblem(await app.api.update(app.alice.idToken, article.id, valid), 404);
    const listed = await app.api.list('?limit=100');
    expect(listed.body.articles.map((a: { id: string }) => a.id)).not.toContain(article.id);
  });

  it('answers 404 for unknown and malformed article ids', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAA', 'short', 'x'.repeat(300), '%27%20or%201%3D1--', '%F0%9F%98%80']) {
      expectProblem(await app.api.get(id), 404);
      expectProblem(await app.api.update(app.alice.idToken, id, valid), 404);
      expectProblem(await app.api.remove(app.alice.idToken, id), 404);
    }
  });

  it('answers unknown API paths with a 404 problem, never the HTML shell', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['GET', '/'],
      ['POST', '/nope'],
      ['GET', '/articles/a/b'],
      ['PATCH', '/articles/AAAAAAAAAAAAAAAAAAAA'],
      ['DELETE', '/articles'],
      ['GET', ''],
      ['GET', `/articles/${'x'.repeat(300)}`],
      ['HEAD', '/nope'],
    ] as const) {
      if (method === 'HEAD') {
        expect((await app.api.request(method, path)).status).toBe(404);
        continue;
      }
      const answer = await app.api.request(method, path);
      expectProblem(answer, 404);
      expect(answer.text).not.toContain('<div id="root">');
    }
  });

  it('sends an ETag and answers 304 to a matching If-None-Match, until the content changes', async () => {
    const { body: article } = await app.api.create(app.alice.idToken, sampleArticle('Cached'));
    const first = await app.api.get(article.id);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);

    const notModified = await app.api.get(article.id, { 'if-none-match': etag! });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    expect((await app.api.get(article.id, { 'if-none-match': `"other", ${etag}` })).status).toBe(304);
    expect((await app.api.get(article.id, { 'if-none-match': '"other"' })).status).toBe(200);

    await app.api.update(app.alice.idToken, article.id, sampleArticle('Cached, edited'));
    const changed = await app.api.get(article.id, { 'if-none-match': etag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);

    const list = await app.api.list('?limit=5');
    const listTag = list.headers.get('etag');
    expect(listTag).toBeTruthy();
    expect((await app.api.list('?limit=5', { 'if-none-match': listTag! })).status).toBe(304);
    await app.api.create(app.alice.idToken, sampleArticle('Newer'));
    expect((await app.api.list('?limit=5', { 'if-none-match': listTag! })).status).toBe(200);
  });

  it('compresses list pages and articles as the client accepts, the same JSON in every coding', async () => {
    for (let i = 0; i < 3; i++) {
      await app.api.create(app.alice.idToken, {
        ...sampleArticle(`Long ${i}`),
        description: `A long enough description ${i}. `.repeat(40),
      });
    }
    const url = `${app.server.url}/api/articles?limit=5`;
    const plain = await rawGet(url, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/accept-encoding/i);
    const json = JSON.parse(plain.body.toString('utf8'));
    expect(json.articles).toHaveLength(5);

    const cases: [string, string | undefined, (bytes: Buffer) => Buffer][] = [
      ['br, gzip', 'br', zlib.brotliDecompressSync],
      ['gzip, deflate, br;q=0.5', 'gzip', zlib.gunzipSync],
      ['gzip;q=0, br;q=0', undefined, (bytes) => bytes],
      ['identity', undefined, (bytes) => bytes],
      ['*', 'br', zlib.brotliDecompressSync],
    ];
    for (const [accept, coding, decode] of cases) {
      // Twice: the first send compresses, the second is served from what the first kept.
      for (let round = 0; round < 2; round++) {
        const answer = await rawGet(url, { 'accept-encoding': accept });
        expect(answer.status, accept).toBe(200);
        expect(answer.headers['content-encoding'], accept).toBe(coding);
        expect(answer.headers['content-length'], accept).toBe(String(answer.body.length));
        expect(answer.headers['etag'], accept).toBe(plain.headers['etag']);
        expect(answer.headers['x-content-type-options'], accept).toBe('nosniff');
        expect(JSON.parse(decode(answer.body).toString('utf8')), accept).toEqual(json);
      }
    }

    const one = json.articles[0].id as string;
    const article = await rawGet(`${app.server.url}/api/articles/${one}`, { 'accept-encoding': 'gzip' });
    expect(article.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(article.body).toString('utf8'))).toMatchObject(json.articles[0]);
  });

  it('answers the article screens with 404 for unknown ids so the app shows its 404 page', async () => {
    const { body: article } = await app.api.create(app.alice.idToken, sampleArticle('Has a page'));
    for (const screen of ['/article/', '/article-update/']) {
      const known = await fetch(`${app.server.url}${screen}${article.id}`);
      expect(known.status, screen).toBe(200);
      // The article page arrives rendered with the real build (ssrScreens.test.ts); the editor is
      // always the app's empty root.
      if (screen === '/article-update/') expect(await known.text()).toContain('<div id="root"></div>');
      expect((await fetch(`${app.server.url}${screen}${article.id}/`)).status, screen).toBe(200);
      for (const id of ['AAAAAAAAAAAAAAAAAAAA', 'nope', '%C3%BC', 'x'.repeat(300)]) {
        const unknown = await fetch(`${app.server.url}${screen}${id}`);
        expect(unknown.status, `${screen}${id}`).toBe(404);
        expect(await unknown.text()).toContain('<div id="root"></div>');
      }
    }
    expect((await fetch(`${app.server.url}/article-update`)).status).toBe(200);
  });
});
