import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { dialectCases } from '../../../test/support/testDatabases.ts';
import { createRateLimiter } from '../rateLimit/rateLimiter.ts';
import type { ModerationEvent } from './articleWrites.ts';
import { createArticles } from './createArticles.ts';

/**
 * The articles service as other features use it (docs/shared seams): `hide`, which resolving a
 * report with `hide` calls, and the audit recorder the composition root passes in, called in
 * the hide's own transaction so a failing record leaves the article as it was.
 */
describe.each(dialectCases())('the moderation seams of the articles service on $dialect', (dialectCase) => {
  let server: TestApp;
  let author: TestUser;
  const recorded: { event: ModerationEvent; statusInTransaction: string | undefined }[] = [];
  let failRecording = false;

  const articlesWith = () =>
    createArticles({
      config: server.config,
      database: server.database,
      verifyIdToken: () => Promise.reject(new Error('not used')),
      rateLimiter: createRateLimiter(server.database),
      async recordAudit(trx, event) {
        const row = await trx
          .selectFrom('articles')
          .select('status')
          .where('id', '=', event.targetId)
          .executeTakeFirst();
        recorded.push({ event, statusInTransaction: row?.status });
        if (failRecording) throw new Error('the audit log is unavailable');
      },
    });

  beforeAll(async () => {
    server = await startTestApp(dialectCase);
    author = await signUp(server.url, 'Author');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('hides for an editor, recording who, what and why inside the same transaction', async () => {
    const { id } = (await articlesApi(server.url).create(author.idToken, sampleArticle('Reported'))).body;
    const articles = articlesWith();
    expect(await articles.hide({ uid: 'editor-uid', role: 'editor' }, id, 'Reported twice.')).toBe('hidden');
    expect(recorded.at(-1)).toEqual({
      event: {
        actorUid: 'editor-uid',
        action: 'article.hide',
        targetType: 'article',
        targetId: id,
        detail: { reason: 'Reported twice.' },
      },
      statusInTransaction: 'hidden',
    });
    expect((await articlesApi(server.url).get(id)).status).toBe(404);
  });

  it('refuses non-editors and unknown ids, recording nothing', async () => {
    const { id } = (await articlesApi(server.url).create(author.idToken, sampleArticle('Fine'))).body;
    const articles = articlesWith();
    const count = recorded.length;
    expect(await articles.hide({ uid: author.uid, role: 'author' }, id, 'Mine.')).toBe('forbidden');
    expect(await articles.hide({ uid: 'editor-uid', role: 'editor' }, 'x'.repeat(20), 'Gone.')).toBe('not_found');
    expect(await articles.hide({ uid: 'editor-uid', role: 'editor' }, '../etc', 'Bad id.')).toBe('not_found');
    expect(recorded).toHaveLength(count);
    expect((await articlesApi(server.url).get(id)).status).toBe(200);
  });

  it('leaves the article published when the record cannot be written', async () => {
    const { id } = (await articlesApi(server.url).create(author.idToken, sampleArticle('Still here'))).body;
    failRecording = true;
    try {
      await expect(articlesWith().hide({ uid: 'editor-uid', role: 'editor' }, id, 'Try.')).rejects.toThrow(/audit log/);
    } finally {
      failRecording = false;
    }
    const read = await articlesApi(server.url).get(id);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('published');
  });
});
