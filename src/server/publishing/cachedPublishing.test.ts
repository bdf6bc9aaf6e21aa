import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { rawGet } from '../../../test/support/rawGet.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';

// The feed, sitemaps and HTML shells are made once and kept until an article changes (issue 13 §1):
// what a reader gets must still follow every change at once, and the compressed bytes must be the page.
describe.each(storageDatabases())('kept feed, sitemap and pages on $dialect', (dialectCase) => {
  let server: TestApp;
  let author: TestUser;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100' });
    author = await signUp(server.url, 'Keeper');
  });
  afterAll(() => server?.close());

  it('shows a new, an edited and a deleted article in the feed and the sitemap at once', async () => {
    const api = articlesApi(server.url);
    const feed = async () => (await fetch(`${server.url}/feed.xml`)).text();
    const sitemap = async () => (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(await feed()).not.toContain('<entry>');
    const created = await api.create(author.idToken, sampleArticle('First light'));
    expect(await feed()).toContain('First light');
    expect(await sitemap()).toContain(`/article/${created.body.id}<`);
    await api.update(author.idToken, created.body.id, sampleArticle('Second light'));
    expect(await feed()).toContain('Second light');
    await api.remove(author.idToken, created.body.id);
    expect(await feed()).not.toContain('light');
    expect(await sitemap()).not.toContain(created.body.id);
  });

  it('answers a feed reader that has the current feed with 304 and no body', async () => {
    const first = await fetch(`${server.url}/feed.xml`);
    await first.text();
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    const again = await fetch(`${server.url}/feed.xml`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it.each(['br', 'gzip'] as const)(
    'sends the home page compressed with %s, byte for byte the plain page',
    async (coding) => {
      const plain = await rawGet(`${server.url}/`, {});
      const packed = await rawGet(`${server.url}/`, { 'accept-encoding': coding });
      expect(packed.headers['content-encoding']).toBe(coding);
      expect(packed.headers['content-type']).toBe('text/html; charset=utf-8');
      const unpacked = coding === 'br' ? zlib.brotliDecompressSync(packed.body) : zlib.gunzipSync(packed.body);
      expect(unpacked.toString('utf8')).toBe(plain.body.toString('utf8'));
      expect(plain.headers['content-encoding']).toBeUndefined();
    },
  );

  it('changes an article page’s head as soon as the article changes', async () => {
    const api = articlesApi(server.url);
    const created = await api.create(author.idToken, sampleArticle('Old title'));
    const title = async () =>
      /<title>([^<]*)<\/title>/.exec(await (await fetch(`${server.url}/article/${created.body.id}`)).text())?.[1];
    expect(await title()).toBe('Old title – Inkwell');
    await api.update(author.idToken, created.body.id, sampleArticle('New title'));
    expect(await title()).toBe('New title – Inkwell');
  });
});
