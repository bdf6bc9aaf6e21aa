import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, identityCall, sampleArticle, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';
import type { Role } from '../../shared/roles.ts';

// docs/product.md, Reports.
describe.each(storageDatabases())('reports on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let owner: TestUser;
  let editor: TestUser;
  let author: TestUser;
  let reader: TestUser;
  let contributor: TestUser;

  const report = (user: TestUser | undefined, articleId: string, json: unknown) =>
    api.request('POST', `/articles/${articleId}/reports`, { token: user?.idToken, json });
  const list = (user: TestUser | undefined, query = '') =>
    api.request('GET', `/reports${query}`, { token: user?.idToken });
  const resolve = (user: TestUser | undefined, id: string, json: unknown) =>
    api.request('POST', `/reports/${id}/resolve`, { token: user?.idToken, json });
  const publish = async (title: string, by: TestUser = author) => {
    const made = await api.create(by.idToken, sampleArticle(title));
    expect(made.status).toBe(201);
    return made.body.id as string;
  };
  const auditAbout = async (targetId: string) =>
    ((await api.request('GET', '/audit', { token: owner.idToken })).body.entries as { targetId: string }[]).filter(
      (entry) => entry.targetId === targetId,
    );
  const member = (name: string, role?: Role) => signUpAs(server, name, role);

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000' });
    api = articlesApi(server.url);
    owner = await member('Olive Owner', 'owner');
    editor = await member('Eddie Editor', 'editor');
    author = await member('Ann Author');
    reader = await member('Rita Reader', 'reader');
    contributor = await member('Cody Contributor', 'contributor');
  });
  afterAll(() => server?.close());

  it('takes a report from any signed-in account, readers included (201), not from anonymous (401)', async () => {
    const id = await publish('Reported by a reader');
    const made = await report(reader, id, { reason: '  Spam links all over.  ' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.any(String),
      targetType: 'article',
      articleId: id,
      commentId: null,
      reporterUid: reader.uid,
      reason: 'Spam links all over.',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      status: 'open',
    });
    expect((await report(contributor, id, { reason: 'Copied from elsewhere.' })).status).toBe(201);
    expect((await report(undefined, id, { reason: 'Anonymous' })).status).toBe(401);
  });

  it('refuses an author reporting their own article (403, a clear sentence), counting and storing nothing (issue 35, finding 7)', async () => {
    const id = await publish('My own words');
    const own = await report(author, id, { reason: 'Reporting myself.' });
    expect(own.status).toBe(403);
    expect(own.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(own.body.detail).toBe('You cannot report your own article: edit or delete it instead.');
    const open = (await list(editor)).body.reports as { articleId: string }[];
    expect(open.filter((entry) => entry.articleId === id)).toEqual([]);
    // Anyone else still may.
    expect((await report(reader, id, { reason: 'Not mine, and spam.' })).status).toBe(201);
  });

  it('wants a reason of 1 to 1000 characters', async () => {
    const id = await publish('Reasons');
    const refused = async (json: unknown, message: string) => {
      const answer = await report(reader, id, json);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.errors).toContainEqual(expect.objectContaining({ message }));
    };
    await refused({}, 'Give a reason: 1 to 1000 characters.');
    await refused({ reason: '   ' }, 'Give a reason: 1 to 1000 characters.');
    await refused({ reason: 7 }, 'Give a reason: 1 to 1000 characters.');
    await refused({ reason: 'x'.repeat(1001) }, 'A reason has at most 1000 characters.');
    await refused({ reason: 'Fine', extra: true }, 'extra is not a field of this request.');
    // Not JSON, no body, a JSON array: a clear 400 each, never a 500.
    for (const raw of ['{"reason":', '', '["Spam"]']) {
      const answer = await api.request('POST', `/articles/${id}/reports`, {
        token: reader.idToken,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status, `${JSON.stringify(raw)}: ${answer.text}`).toBe(400);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
    }
    expect((await report(reader, id, { reason: 'x'.repeat(1000) })).status).toBe(201);
  });

  it('keeps one open report per person per article (409); once it is resolved, another may follow', async () => {
    const id = await publish('Twice reported');
    const first = await report(reader, id, { reason: 'Rude.' });
    expect(first.status).toBe(201);
    const again = await report(reader, id, { reason: 'Still rude.' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('You have already reported this article; editors will look at it.');
    // Two at once: the database lets one through.
    const raced = await Promise.all([
      report(contributor, id, { reason: 'One' }),
      report(contributor, id, { reason: 'Two' }),
    ]);
    expect(raced.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect((await resolve(editor, first.body.id, { action: 'dismiss' })).status).toBe(200);
    expect((await report(reader, id, { reason: 'It happened again.' })).status).toBe(201);
  });

  it('answers 404 for an article the reporter cannot see: unknown, a draft, a hidden one', async () => {
    expect((await report(reader, 'AAAAAAAAAAAAAAAAAAAA', { reason: 'Ghost' })).status).toBe(404);
    expect((await report(reader, 'not an id', { reason: 'Ghost' })).body.detail).toBe(
      'There is no article with this id.',
    );
    const draft = await api.create(author.idToken, { ...sampleArticle('Draft'), status: 'draft' });
    expect(draft.body.status).toBe('draft');
    expect((await report(reader, draft.body.id, { reason: 'Seen?' })).status).toBe(404);
    const hidden = await publish('Hidden already');
    expect(
      (await api.request('POST', `/articles/${hidden}/hide`, { token: editor.idToken, json: { reason: 'Off topic' } }))
        .status,
    ).toBe(200);
    expect((await report(reader, hidden, { reason: 'Seen?' })).status).toBe(404);
  });

  it('allows 20 reports per person a day, then 429; refused ones do not count', async () => {
    const busy = await member('Busy Reporter', 'reader');
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) ids.push(await publish(`Many ${i}`));
    expect((await report(busy, ids[0]!, { reason: 'First' })).status).toBe(201);
    // A duplicate, a missing article and a bad reason are not reports made.
    expect((await report(busy, ids[0]!, { reason: 'Again' })).status).toBe(409);
    expect((await report(busy, 'AAAAAAAAAAAAAAAAAAAA', { reason: 'Nothing' })).status).toBe(404);
    expect((await report(busy, ids[1]!, { reason: '' })).status).toBe(400);
    for (let i = 1; i < 20; i++) expect((await report(busy, ids[i]!, { reason: `Report ${i}` })).status).toBe(201);
    const limited = await report(busy, ids[20]!, { reason: 'One too many' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.detail).toBe('You have made 20 reports today, the most in a day. Please try again tomorrow.');
    // Others are not limited by it.
    expect((await report(reader, ids[20]!, { reason: 'Mine' })).status).toBe(201);
  });

  it('lists open reports for editors and owners with the article’s title; others get 403', async () => {
    const id = await publish('Listed article');
    const made = await report(reader, id, { reason: 'Listed reason' });
    expect((await list(undefined)).status).toBe(401);
    for (const user of [reader, contributor, author]) expect((await list(user)).status).toBe(403);
    for (const user of [editor, owner]) {
      const answer = await list(user, '?status=open');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.body.reports).toContainEqual({
        id: made.body.id,
        targetType: 'article',
        articleId: id,
        commentId: null,
        articleTitle: 'Listed article',
        reporterUid: reader.uid,
        reporterName: 'Rita Reader',
        reporterSlug: 'rita-reader',
        reason: 'Listed reason',
        createdAt: made.body.createdAt,
        status: 'open',
      });
    }
    // Without status: the open ones; oldest first.
    const open = (await list(editor)).body.reports as { createdAt: string; status: string }[];
    expect(open.every((r) => r.status === 'open')).toBe(true);
    expect(open.map((r) => r.createdAt)).toEqual([...open.map((r) => r.createdAt)].sort());
    expect((await list(editor, '?status=closed')).status).toBe(400);
    expect((await list(editor, '?status=open&page=2')).status).toBe(400);
  });

  it('dismisses one report: the article stays, the others stay open, the log has it', async () => {
    const id = await publish('Dismissed one');
    const mine = await report(reader, id, { reason: 'Meh' });
    const theirs = await report(contributor, id, { reason: 'Bad' });
    expect((await resolve(author, mine.body.id, { action: 'dismiss' })).status).toBe(403);
    expect((await resolve(undefined, mine.body.id, { action: 'dismiss' })).status).toBe(401);
    expect((await resolve(editor, mine.body.id, { action: 'delete' })).status).toBe(400);
    expect((await resolve(editor, mine.body.id, { action: 'dismiss', note: 'x'.repeat(501) })).status).toBe(400);
    const done = await resolve(editor, mine.body.id, { action: 'dismiss', note: 'Not against the rules.' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      id: mine.body.id,
      status: 'dismissed',
      resolverUid: editor.uid,
      note: 'Not against the rules.',
      closed: [mine.body.id],
    });
    expect((await api.get(id)).status).toBe(200);
    const open = (await list(editor)).body.reports as { id: string }[];
    expect(open.map((r) => r.id)).toContain(theirs.body.id);
    expect(open.map((r) => r.id)).not.toContain(mine.body.id);
    expect((await list(editor, '?status=dismissed')).body.reports).toContainEqual(
      expect.objectContaining({ id: mine.body.id, status: 'dismissed' }),
    );
    const again = await resolve(owner, mine.body.id, { action: 'hide' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('This report is already resolved.');
    expect((await resolve(editor, 'no-such-report', { action: 'dismiss' })).status).toBe(404);
    expect(await auditAbout(mine.body.id)).toEqual([
      expect.objectContaining({
        actorUid: editor.uid,
        action: 'report.resolve',
        targetType: 'report',
        detail: { action: 'dismiss', articleId: id, note: 'Not against the rules.' },
      }),
    ]);
  });

  it('hides with the report’s reason and closes every open report of the article', async () => {
    const id = await publish('Hidden by a report');
    const first = await report(reader, id, { reason: 'Harassment in the second paragraph.' });
    const second = await report(contributor, id, { reason: 'Same here.' });
    const done = await resolve(editor, first.body.id, { action: 'hide' });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('hidden');
    expect([...done.body.closed].sort()).toEqual([first.body.id, second.body.id].sort());
    // Gone for everyone but its author and editors; the author sees why.
    expect((await api.get(id)).status).toBe(404);
    const seen = await api.request('GET', `/articles/${id}`, { token: author.idToken });
    expect(seen.body).toMatchObject({
      status: 'hidden',
      moderation: { reason: 'Harassment in the second paragraph.' },
    });
    const open = (await list(editor)).body.reports as { articleId: string }[];
    expect(open.filter((r) => r.articleId === id)).toEqual([]);
    expect(await auditAbout(id)).toEqual([
      expect.objectContaining({ actorUid: editor.uid, action: 'article.hide', targetType: 'article' }),
    ]);
    for (const closed of [first.body.id, second.body.id]) {
      expect(await auditAbout(closed)).toEqual([
        expect.objectContaining({
          actorUid: editor.uid,
          action: 'report.resolve',
          detail: { action: 'hide', articleId: id },
        }),
      ]);
    }
  });

  it('hides with the editor’s note when given; a 1000-character reason is cut to a hiding reason’s 500', async () => {
    const noted = await publish('Hidden with a note');
    const withNote = await report(reader, noted, { reason: 'Reported reason' });
    expect((await resolve(owner, withNote.body.id, { action: 'hide', note: 'Breaks rule 3.' })).status).toBe(200);
    expect((await api.request('GET', `/articles/${noted}`, { token: author.idToken })).body.moderation.reason).toBe(
      'Breaks rule 3.',
    );
    const long = await publish('Hidden with a long reason');
    const longReport = await report(reader, long, { reason: 'y'.repeat(1000) });
    expect((await resolve(editor, longReport.body.id, { action: 'hide' })).status).toBe(200);
    const reason = (await api.request('GET', `/articles/${long}`, { token: author.idToken })).body.moderation.reason;
    expect(reason).toHaveLength(500);
    expect(reason).toBe(`${'y'.repeat(499)}…`);
  });

  it('of two editors resolving one report at once, one does it and the other hears 409', async () => {
    const id = await publish('Resolved twice at once');
    const made = await report(reader, id, { reason: 'Race' });
    const answers = await Promise.all([
      resolve(editor, made.body.id, { action: 'dismiss' }),
      resolve(owner, made.body.id, { action: 'dismiss' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await auditAbout(made.body.id)).toHaveLength(1);
  });

  it('a deleted account’s reports go with it', async () => {
    const leaver = await member('Lou Leaver', 'reader');
    const id = await publish('Reported by a leaver');
    const made = await report(leaver, id, { reason: 'Bye' });
    const deleted = await identityCall(server.url, 'accounts:delete', { idToken: leaver.idToken });
    expect(deleted.status).toBe(200);
    expect(((await list(editor)).body.reports as { id: string }[]).map((r) => r.id)).not.toContain(made.body.id);
  });

  it('deleting an article deletes its reports', async () => {
    const id = await publish('Deleted with its reports');
    const made = await report(reader, id, { reason: 'Going away' });
    expect((await api.remove(author.idToken, id)).status).toBe(204);
    expect(((await list(editor)).body.reports as { id: string }[]).map((r) => r.id)).not.toContain(made.body.id);
    expect((await resolve(editor, made.body.id, { action: 'dismiss' })).status).toBe(404);
  });
});
