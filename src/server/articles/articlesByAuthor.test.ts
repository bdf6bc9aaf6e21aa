import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

// docs/architecture.md, Articles API: GET /api/articles?author=UID lists one author's articles, paged like the home list.
describe.each(contractDatabases())('one author’s articles on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let alice: TestUser;
  let bob: TestUser;
  const alicesIds: string[] = [];

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000' });
    api = articlesApi(server.url);
    [alice, bob] = await Promise.all([signUp(server.url, 'Alice'), signUp(server.url, 'Bob')]);
    // Interleaved, so a page of Alice's skips Bob's articles between hers.
    for (let index = 0; index < 5; index += 1) {
      const own = await api.create(alice.idToken, sampleArticle(`Alice ${index}`));
      expect(own.status).toBe(201);
      alicesIds.unshift(own.body.id);
      expect((await api.create(bob.idToken, sampleArticle(`Bob ${index}`))).status).toBe(201);
    }
  });
  afterAll(() => server?.close());

  it('pages through only that author’s articles, newest first, with the cursors it hands out', async () => {
    const seen: string[] = [];
    let query = `?author=${alice.uid}&limit=2`;
    for (let page = 0; page < 5; page += 1) {
      const answer = await api.list(query);
      expect(answer.status).toBe(200);
      for (const article of answer.body.articles) expect(article.authorId).toBe(alice.uid);
      seen.push(...answer.body.articles.map((article: { id: string }) => article.id));
      if (answer.body.nextCursor === null) break;
      query = `?author=${alice.uid}&limit=2&cursor=${answer.body.nextCursor}`;
    }
    expect(seen).toEqual(alicesIds);
  });

  it('follows a new article and a deleted one at once', async () => {
    const created = await api.create(alice.idToken, sampleArticle('Alice, later'));
    const first = await api.list(`?author=${alice.uid}&limit=1`);
    expect(first.body.articles[0].id).toBe(created.body.id);
    expect((await api.remove(alice.idToken, created.body.id)).status).toBe(204);
    expect((await api.list(`?author=${alice.uid}&limit=1`)).body.articles[0].id).toBe(alicesIds[0]);
  });

  it('answers an unknown author with an empty list, not an error', async () => {
    const answer = await api.list('?author=nobody-has-this-id');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ articles: [], nextCursor: null });
  });

  it.each([
    ['an empty author', '?author='],
    ['two authors', '?author=a&author=b'],
    ['an author id longer than any account id', `?author=${'x'.repeat(129)}`],
  ])('refuses %s with a 400 naming the parameter', async (_name, query) => {
    const answer = await api.list(query);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body.errors).toEqual([{ field: 'author', message: 'author must be one account id.' }]);
  });

  it('refuses a NUL character with a 400 naming the parameter (the input rules, decision 0561)', async () => {
    const answer = await api.list('?author=a%00b');
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body.errors).toEqual([
      { field: 'author', message: 'author contains a character that cannot be stored (NUL or a lone surrogate).' },
    ]);
  });
});
