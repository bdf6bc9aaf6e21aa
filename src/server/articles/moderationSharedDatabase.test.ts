import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startSecondServer, type SecondServer } from '../../../test/support/secondServer.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';

// Two servers on one database, as two processes behind a load balancer. Every status change
// made through one shows through the other at once: its read cache (articleReads.ts) holds the
// article, the lists, the feed and the page shells until the database's read version moves.
describe.each(storageDatabases())('status changes across two servers on $dialect', (dialectCase) => {
  let first: TestApp;
  let second: SecondServer;
  let author: TestUser;
  let editor: TestUser;

  beforeAll(async () => {
    first = await startTestApp(dialectCase, { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000' });
    second = await startSecondServer(first);
    author = await signUp(first.url, 'Author');
    editor = await signUpAs(first, 'Editor', 'editor');
  });
  afterAll(async () => {
    await second?.close();
    await first.close();
  });

  it('hides on one server and the other answers 404 at once; restore and publish show at once too', async () => {
    const reader = articlesApi(first.url);
    const moderator = articlesApi(second.url);
    const created = await reader.create(author.idToken, sampleArticle('Across'));
    const id = created.body.id as string;
    const listed = async () => ((await reader.list()).body.articles as { id: string }[]).map((article) => article.id);
    const feed = async () => (await fetch(`${first.url}/feed.xml`)).text();
    // Everything read once, so the first server's cache holds it.
    expect((await reader.get(id)).status).toBe(200);
    expect(await listed()).toContain(id);
    expect(await feed()).toContain(id);
    expect((await fetch(`${first.url}/article/${id}`)).status).toBe(200);

    const hidden = await moderator.request('POST', `/articles/${id}/hide`, {
      token: editor.idToken,
      json: { reason: 'Seen elsewhere.' },
    });
    expect(hidden.status).toBe(200);
    expect((await reader.get(id)).status).toBe(404);
    expect(await listed()).not.toContain(id);
    expect(await feed()).not.toContain(id);
    expect((await fetch(`${first.url}/article/${id}`)).status).toBe(404);

    expect((await moderator.request('POST', `/articles/${id}/restore`, { token: editor.idToken })).status).toBe(200);
    expect((await reader.get(id)).status).toBe(200);
    expect(await listed()).toContain(id);
    expect((await fetch(`${first.url}/article/${id}`)).status).toBe(200);

    // Unpublished by its author through one, published again through the other.
    expect((await moderator.update(author.idToken, id, { ...sampleArticle('Across'), status: 'draft' })).status).toBe(
      200,
    );
    expect((await reader.get(id)).status).toBe(404);
    expect(await listed()).not.toContain(id);
    expect((await reader.update(author.idToken, id, { ...sampleArticle('Across'), status: 'published' })).status).toBe(
      200,
    );
    expect((await articlesApi(second.url).get(id)).status).toBe(200);
  });
});
