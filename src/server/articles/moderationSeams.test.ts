import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../mail/mailer.ts';
import { createServices } from '../services.ts';
import { apiScope } from '../http/apiScope.ts';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { createRateLimiter } from '../rateLimit/rateLimiter.ts';
import type { ModerationEvent } from './articleWrites.ts';
import { createArticles } from './createArticles.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';

/**
 * The articles service as other features use it (docs/shared seams): `hide`, which resolving a
 * report with `hide` calls, and the audit recorder the composition root passes in, called in
 * the hide's own transaction so a failing record leaves the article as it was.
 */
describe.each(storageDatabases())('the moderation seams of the articles service on $dialect', (dialectCase) => {
  let server: TestApp;
  let author: TestUser;
  const recorded: { event: ModerationEvent; statusInTransaction: string | undefined }[] = [];
  let failRecording = false;

  const articlesWith = () =>
    createArticles({
      config: server.config,
      database: server.database,
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

  it('records restores and deletions of another person’s article made through the API, not one’s own', async () => {
    const editor = await signUpAs(server, 'Editor', 'editor');
    const mailer = createMailer({
      smtpUrl: undefined,
      from: server.config.mailFrom,
      dataDir: server.config.dataDir,
      log: { info: () => {}, warn: () => {}, error: () => {} },
    });
    const { identity } = createServices({ config: server.config, database: server.database, mailer });
    const app = Fastify();
    await app.register(apiScope({ verifyIdToken: identity.verifyIdToken, features: [articlesWith().routes] }), {
      prefix: '/api',
    });
    const call = (method: 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
    try {
      const theirs = (await articlesApi(server.url).create(author.idToken, sampleArticle('Theirs'))).body.id as string;
      const mine = (await articlesApi(server.url).create(editor.idToken, sampleArticle('Mine'))).body.id as string;
      const count = recorded.length;
      expect((await call('POST', `/api/articles/${theirs}/hide`, editor.idToken, { reason: 'Look.' })).statusCode).toBe(
        200,
      );
      expect((await call('POST', `/api/articles/${theirs}/restore`, editor.idToken)).statusCode).toBe(200);
      expect((await call('DELETE', `/api/articles/${mine}`, editor.idToken)).statusCode).toBe(204);
      expect((await call('DELETE', `/api/articles/${theirs}`, editor.idToken)).statusCode).toBe(204);
      expect(recorded.slice(count).map(({ event }) => [event.actorUid, event.action, event.targetId])).toEqual([
        [editor.uid, 'article.hide', theirs],
        [editor.uid, 'article.restore', theirs],
        [editor.uid, 'article.delete', theirs],
      ]);
    } finally {
      await app.close();
      await mailer.close();
    }
  });
});
