import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTICLE_PAGE_DEFAULT_LIMIT } from '../../shared/articleSchema.ts';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

/**
 * The home and author pages' later pages, rendered by the server at `?cursor=` (DESIGN.md §9.6):
 * what their Load more link leads to without script.
 */
describe.each(contractDatabases())('list pages by cursor on $dialect', (dialectCase) => {
  let server: TestApp;
  let writer: TestUser;
  const titles: string[] = [];

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000' }, { webDist: 'built' });
    writer = await signUp(server.url, 'Writer');
    const api = articlesApi(server.url);
    for (let n = 0; n <= ARTICLE_PAGE_DEFAULT_LIMIT; n += 1) {
      const created = await api.create(writer.idToken, sampleArticle(`Zqpage${n}xv`));
      expect(created.status).toBe(201);
      titles.push(created.body.title);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, text: await response.text() };
  };
  const loadMoreHref = (html: string) => /<a href="(\?cursor=[^"]+)"[^>]*>Load more<\/a>/.exec(html)?.[1];

  it('links Load more to the next page, which holds the rest of the list', async () => {
    const author = (await get(`/author/${writer.uid}`)).text.match(/href="\/author\/([^"?]+)"/)?.[1];
    for (const path of ['/', `/author/${author}`]) {
      const first = await get(path);
      expect(first.status).toBe(200);
      expect(first.text).toContain(titles.at(-1));
      expect(first.text).not.toContain(`>${titles[0]}<`);
      const href = loadMoreHref(first.text)!;
      expect(href, path).toBeDefined();
      const next = await get(`${path}${href.replaceAll('&amp;', '&')}`);
      expect(next.status).toBe(200);
      expect(next.text).toContain(`>${titles[0]}<`);
      expect(next.text).not.toContain(`>${titles.at(-1)}<`);
      expect(loadMoreHref(next.text)).toBeUndefined();
      // Each page is kept apart: the first is still the first.
      expect((await get(path)).text).toBe(first.text);
    }
  });

  it('refuses a cursor it did not issue with a 400', async () => {
    for (const query of ['?cursor=not-a-cursor', '?cursor=', '?cursor=a&cursor=b']) {
      expect((await get(`/${query}`)).status, query).toBe(400);
    }
  });
});
