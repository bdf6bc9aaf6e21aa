import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecondServer, type SecondServer } from '../../../test/support/secondServer.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import {
  articlesApi,
  identityCall,
  sampleArticle,
  signUp,
  type TestUser,
} from '../../../test/support/articlesTestClient.ts';

// Two servers on one database, as two processes behind a load balancer would be. Reads
// are cached in memory (articleReads.ts); a write through the other server must show at
// once, never a stale page or article.
describe.each(storageDatabases())('two servers sharing one database on $dialect', (dialectCase) => {
  let first: TestApp;
  let second: SecondServer;
  let author: TestUser;

  beforeAll(async () => {
    first = await startTestApp(dialectCase, { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000' });
    second = await startSecondServer(first);
    author = await signUp(second.url, 'Before');
  });
  afterAll(async () => {
    await second?.close();
    await first.close();
  });

  it('shows articles created, changed and deleted through the other server at once', async () => {
    const reader = articlesApi(first.url);
    const writer = articlesApi(second.url);
    const titles = async () => ((await reader.list()).body.articles as Array<{ title: string }>).map((a) => a.title);

    expect(await titles()).toEqual([]);
    const created = await writer.create(author.idToken, sampleArticle('One'));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(await titles()).toEqual(['One']);
    expect((await reader.get(id)).body.title).toBe('One');

    expect((await writer.update(author.idToken, id, sampleArticle('One, edited'))).status).toBe(200);
    expect(await titles()).toEqual(['One, edited']);
    expect((await reader.get(id)).body.title).toBe('One, edited');

    const renamed = await identityCall(second.url, 'accounts:update', {
      idToken: author.idToken,
      displayName: 'After',
    });
    expect(renamed.status).toBe(200);
    expect((await reader.get(id)).body.authorName).toBe('After');
    expect((await reader.list()).body.articles[0].authorName).toBe('After');
    // A new picture too (issue 39.5: it waited for a restart).
    const picture = 'https://pictures.example/after.png';
    const repictured = await identityCall(second.url, 'accounts:update', {
      idToken: author.idToken,
      photoUrl: picture,
    });
    expect(repictured.status).toBe(200);
    expect((await reader.get(id)).body.authorPhotoUrl).toBe(picture);
    expect((await reader.list()).body.articles[0].authorPhotoUrl).toBe(picture);

    expect((await fetch(`${first.url}/article/${id}`)).status).toBe(200);
    expect((await writer.remove(author.idToken, id)).status).toBe(204);
    expect((await reader.get(id)).status).toBe(404);
    expect(await titles()).toEqual([]);
    expect((await fetch(`${first.url}/article/${id}`)).status).toBe(404);
  });

  it('shows writes made through its own server at once too', async () => {
    const api = articlesApi(first.url);
    const own = await signUp(first.url, 'Own');
    await api.list();
    const created = await api.create(own.idToken, sampleArticle('Mine'));
    expect((await api.list()).body.articles[0].title).toBe('Mine');
    expect((await api.remove(own.idToken, created.body.id)).status).toBe(204);
    expect((await api.get(created.body.id)).status).toBe(404);
  });
});
