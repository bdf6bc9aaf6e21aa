import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp } from '../../../test/support/articlesTestClient.ts';
import { rawGet } from '../../../test/support/rawGet.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { encodeArticleCursor } from './articleCursor.ts';

// A page at a cursor the server never handed out is made for that one request and not kept
// (docs/architecture.md, Budgets); it must still be the right page, in a coding the client takes.
describe.each(storageDatabases())('pages at made-up cursors on $dialect', (dialectCase) => {
  let server: TestApp;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100' });
    const author = await signUp(server.url, 'Cursor');
    const api = articlesApi(server.url);
    // Long enough that a page of them is compressed.
    for (let i = 0; i < 6; i += 1)
      await api.create(author.idToken, { ...sampleArticle(`Page ${i}`), description: `Text ${i} `.repeat(200) });
  });
  afterAll(() => server?.close());

  it('answers a made-up cursor with the right page, gzip-compressed for a client that takes br and gzip', async () => {
    const all = (await articlesApi(server.url).list('?limit=100')).body.articles as Array<{ id: string; date: string }>;
    const third = all[2]!;
    const madeUp = encodeArticleCursor({ date: Date.parse(third.date), id: `${third.id}` });
    const url = `${server.url}/api/articles?limit=2&cursor=${madeUp}`;
    const plain = await rawGet(url, {});
    const packed = await rawGet(url, { 'accept-encoding': 'br, gzip' });
    expect(packed.status).toBe(200);
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(packed.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    const page = JSON.parse(plain.body.toString('utf8')) as { articles: Array<{ id: string }> };
    expect(page.articles.map((article) => article.id)).toEqual([all[3]!.id, all[4]!.id]);
    // Its validator still works.
    const again = await rawGet(url, { 'accept-encoding': 'br, gzip', 'if-none-match': String(packed.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('keeps brotli for the pages it hands out', async () => {
    const first = await rawGet(`${server.url}/api/articles?limit=2`, { 'accept-encoding': 'br, gzip' });
    expect(first.headers['content-encoding']).toBe('br');
    const { nextCursor } = JSON.parse(zlib.brotliDecompressSync(first.body).toString('utf8')) as { nextCursor: string };
    const second = await rawGet(`${server.url}/api/articles?limit=2&cursor=${nextCursor}`, {
      'accept-encoding': 'br, gzip',
    });
    expect(second.headers['content-encoding']).toBe('br');
  });
});
