import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';

/**
 * No draft, submitted or hidden article is reachable through any anonymous URL (DESIGN.md
 * §8.2): every public read is walked once while the articles are published (so the walk
 * demonstrably finds them, and every cache holds them), then again after each has left
 * `published`: no body, head tag, feed, sitemap file, list, search or tag count may name them.
 */
describe.each(contractDatabases())('what anonymous visitors can reach on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let writer: TestUser;
  let editor: TestUser;
  /** Articles by status they will be moved to; `published` stays published (the walk's control). */
  const articles = {} as Record<'published' | 'draft' | 'submitted' | 'hidden', { id: string; word: string }>;

  beforeAll(async () => {
    // Small sitemap files, so the sitemap is an index and its every part is walked.
    server = await startTestApp(
      dialectCase,
      { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000' },
      { sitemapPageSize: 2, webDist: 'built' },
    );
    api = articlesApi(server.url);
    writer = await signUp(server.url, 'Writer');
    editor = await signUpAs(server, 'Editor', 'editor');
    for (const status of ['published', 'draft', 'submitted', 'hidden'] as const) {
      // A word found nowhere else, in the title, the text and a tag of its own.
      const word = `Zq${status}xv`;
      const created = await api.create(writer.idToken, {
        ...sampleArticle(`The ${word} story`),
        description: `All about ${word}.`,
        tags: [word, 'shared'],
      });
      expect(created.status).toBe(201);
      articles[status] = { id: created.body.id, word };
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Every anonymous URL, and what each answered: the sitemap's parts are followed. */
  async function walk(): Promise<Map<string, { status: number; text: string }>> {
    const answers = new Map<string, { status: number; text: string }>();
    const get = async (path: string) => {
      const response = await fetch(`${server.url}${path}`);
      const answer = { status: response.status, text: await response.text() };
      answers.set(path, answer);
      return answer;
    };
    const paths = [
      '/',
      '/feed.xml',
      '/robots.txt',
      `/author/${writer.uid}`,
      '/api/articles',
      `/api/articles?author=${writer.uid}`,
      '/api/articles?tag=shared',
      '/api/tags',
      '/tag/shared',
      '/tag/shared/feed.xml',
    ];
    for (const { id, word } of Object.values(articles)) {
      const slug = word.toLowerCase();
      paths.push(
        `/article/${id}`,
        `/article-update/${id}`,
        `/api/articles/${id}`,
        `/tag/${slug}`,
        `/tag/${slug}/feed.xml`,
        `/api/articles?tag=${slug}`,
        `/api/search?q=${word}`,
      );
    }
    for (const path of paths) await get(path);
    const sitemapFiles = [(await get('/sitemap.xml')).text];
    for (let index = 0; index < sitemapFiles.length; index++) {
      for (const [, loc] of sitemapFiles[index]!.matchAll(/<loc>([^<]+)<\/loc>/g)) {
        const url = new URL(loc!.replaceAll('&amp;', '&'));
        const path = url.pathname + url.search;
        if (url.pathname.startsWith('/sitemaps/') && !answers.has(path)) sitemapFiles.push((await get(path)).text);
      }
    }
    expect([...answers.keys()].filter((path) => path.startsWith('/sitemaps/')).length).toBeGreaterThanOrEqual(3);
    return answers;
  }

  const naming = (answers: Map<string, { text: string }>, article: { id: string; word: string }) =>
    [...answers]
      .filter(
        ([, answer]) =>
          answer.text.includes(article.id) || answer.text.toLowerCase().includes(article.word.toLowerCase()),
      )
      .map(([path]) => path);

  it('finds every article while published, and none once it is a draft, submitted or hidden', async () => {
    const before = await walk();
    for (const article of Object.values(articles)) {
      // Its page, its API read, feeds, sitemaps, lists and search all name it.
      expect(naming(before, article)).toEqual(
        expect.arrayContaining([
          `/article/${article.id}`,
          `/api/articles/${article.id}`,
          '/feed.xml',
          '/api/articles',
          `/api/search?q=${article.word}`,
          `/tag/${article.word.toLowerCase()}/feed.xml`,
          '/api/tags',
        ]),
      );
    }

    const edit = (status: string) => ({
      ...sampleArticle(`The ${articles[status as 'draft'].word} story`),
      description: `All about ${articles[status as 'draft'].word}.`,
      status,
    });
    expect((await api.update(writer.idToken, articles.draft.id, edit('draft'))).status).toBe(200);
    expect((await api.update(writer.idToken, articles.submitted.id, edit('submitted'))).status).toBe(200);
    const hidden = await api.request('POST', `/articles/${articles.hidden.id}/hide`, {
      token: editor.idToken,
      json: { reason: 'Walk test.' },
    });
    expect(hidden.status).toBe(200);

    const after = await walk();
    for (const status of ['draft', 'submitted', 'hidden'] as const) {
      expect(naming(after, articles[status]), status).toEqual([]);
      expect(after.get(`/article/${articles[status].id}`)!.status, status).toBe(404);
      expect(after.get(`/api/articles/${articles[status].id}`)!.status, status).toBe(404);
      expect(after.get(`/tag/${articles[status].word.toLowerCase()}`)!.status, status).toBe(404);
      expect(after.get(`/tag/${articles[status].word.toLowerCase()}/feed.xml`)!.status, status).toBe(404);
    }
    // The control is still everywhere (the sitemap's files now split at other places).
    const control = naming(after, articles.published);
    expect(control).toEqual(
      expect.arrayContaining(naming(before, articles.published).filter((path) => !path.startsWith('/sitemap'))),
    );
    expect(control.some((path) => path.startsWith('/sitemaps/articles.xml'))).toBe(true);
    // The shared tag counts only the published one.
    const tags = JSON.parse(after.get('/api/tags')!.text) as { tags: { slug: string; count: number }[] };
    expect(tags.tags.find((tag) => tag.slug === 'shared')?.count).toBe(1);
  });
});
