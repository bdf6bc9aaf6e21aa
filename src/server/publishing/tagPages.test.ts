import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

// Tag pages as a crawler and a feed reader see them (DESIGN.md §8.5).

const PUBLIC_URL = 'https://notes.example.org';

describe.each(contractDatabases())('tag pages, feeds and sitemap on $dialect', (dialectCase) => {
  let server: TestApp;
  let writer: TestUser;
  let api: ReturnType<typeof articlesApi>;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { PUBLIC_URL });
    api = articlesApi(server.url);
    writer = await signUp(server.url, 'Writer');
    await api.create(writer.idToken, { ...sampleArticle('Knots & ropes'), tags: ['Sailing Knots'] });
    await api.create(writer.idToken, { ...sampleArticle('Untagged') });
    const gone = await api.create(writer.idToken, { ...sampleArticle('Gone'), tags: ['Vanished'] });
    await api.remove(writer.idToken, gone.body.id);
  });
  afterAll(() => server.close());

  it('answers a tag page 200 while a published article has the tag, 404 otherwise', async () => {
    const page = await fetch(`${server.url}/tag/sailing-knots`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/api/articles?tag=sailing-knots&amp;limit=20');
    for (const path of ['/tag/vanished', '/tag/never-used', '/tag/Not%20A%20Slug']) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
    }
  });

  it('serves the tag feed with its articles only, and 404 for a tag without articles', async () => {
    const feed = await fetch(`${server.url}/tag/sailing-knots/feed.xml`);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
    const xml = await feed.text();
    expect(xml).toContain('<title type="text">Sailing Knots · Inkwell</title>');
    expect(xml).toContain(`href="${PUBLIC_URL}/tag/sailing-knots/feed.xml"`);
    expect(xml).toContain('Knots &amp; ropes');
    expect(xml).not.toContain('Untagged');
    expect((await fetch(`${server.url}/tag/vanished/feed.xml`)).status).toBe(404);
    expect((await fetch(`${server.url}/tag/BAD/feed.xml`)).status).toBe(404);
  });

  it('lists the pages of tags with published articles in the sitemap', async () => {
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${PUBLIC_URL}/tag/sailing-knots</loc>`);
    expect(sitemap).not.toContain('/tag/vanished');
  });
});
