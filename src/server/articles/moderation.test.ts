import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleDetailSchema, articlePageSchema } from '../../shared/articleSchema.ts';
import type { Role } from '../../shared/roles.ts';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';

/**
 * Drafts, review and moderation through the real API (DESIGN.md §8.2): who may write which
 * status, who sees what, hide and restore, editors acting on any article, the first
 * publication date, and the author's mails through a real SMTP sink.
 */
describe.each(contractDatabases())('drafts, review and moderation on $dialect', (dialectCase) => {
  let server: TestApp;
  let sink: SmtpSink;
  let api: ReturnType<typeof articlesApi>;
  let now = Date.parse('2026-11-01T10:00:00.000Z');
  const people = {} as Record<'reader' | 'contributor' | 'author' | 'other' | 'editor', TestUser>;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(
      dialectCase,
      {
        SMTP_URL: sink.url,
        SITE_TITLE: 'Harbour Notes',
        RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000',
        RATE_LIMIT_SIGNUP_PER_IP: '100000',
      },
      { clock: () => now },
    );
    api = articlesApi(server.url);
    const roles: [keyof typeof people, Role][] = [
      ['reader', 'reader'],
      ['contributor', 'contributor'],
      ['author', 'author'],
      ['other', 'author'],
      ['editor', 'editor'],
    ];
    for (const [name, role] of roles) {
      people[name] = await signUpAs(server, name[0]!.toUpperCase() + name.slice(1), role);
    }
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  const token = (name: keyof typeof people) => people[name].idToken;
  const bearer = (name: keyof typeof people) => ({ authorization: `Bearer ${token(name)}` });
  const create = async (name: keyof typeof people, json: object) => {
    const created = await api.create(token(name), { ...sampleArticle('Draft day'), ...json });
    expect(created.status, created.text).toBe(201);
    return articleDetailSchema.parse(created.body);
  };
  const publicIds = async (query = '') =>
    articlePageSchema.parse((await api.list(query)).body).articles.map((article) => article.id);

  it('gives new articles the role default: published for authors, a draft for contributors', async () => {
    const published = await create('author', {});
    expect(published.status).toBe('published');
    const draft = await create('contributor', {});
    expect(draft.status).toBe('draft');
    expect(await publicIds()).toContain(published.id);
    expect(await publicIds()).not.toContain(draft.id);
  });

  it('refuses publishing to contributors and any write to readers, creating nothing', async () => {
    const before = await server.database.db.selectFrom('articles').select('id').execute();
    const asContributor = await api.create(token('contributor'), { ...sampleArticle(), status: 'published' });
    expect(asContributor.status).toBe(403);
    expect(asContributor.body.detail).toMatch(/publishing/);
    for (const status of [undefined, 'draft', 'submitted', 'published']) {
      const asReader = await api.create(token('reader'), { ...sampleArticle(), ...(status ? { status } : {}) });
      expect(asReader.status, status).toBe(403);
    }
    const badStatus = await api.create(token('author'), { ...sampleArticle(), status: 'hidden' });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.errors).toEqual([
      { field: 'status', message: 'status must be draft, submitted, scheduled or published.' },
    ]);
    const after = await server.database.db.selectFrom('articles').select('id').execute();
    expect(after).toHaveLength(before.length);
  });

  it('shows a draft to its author and editors only; anyone else is told there is no such article', async () => {
    const draft = await create('author', { status: 'draft', title: 'Secret plans' });
    for (const headers of [{}, bearer('other'), bearer('reader'), bearer('contributor')]) {
      const answer = await api.get(draft.id, headers);
      expect(answer.status).toBe(404);
      expect(answer.body.detail).toBe('There is no article with this id.');
    }
    for (const name of ['author', 'editor'] as const) {
      const answer = await api.get(draft.id, bearer(name));
      expect(answer.status, name).toBe(200);
      expect(answer.body).toMatchObject({ id: draft.id, status: 'draft', title: 'Secret plans' });
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
    }
    const badToken = await api.get(draft.id, { authorization: 'Bearer not-a-token' });
    expect(badToken.status).toBe(401);
    // Nor can another author change or delete it, or learn that it exists by trying.
    expect((await api.update(token('other'), draft.id, sampleArticle('Mine now'))).status).toBe(404);
    expect((await api.remove(token('other'), draft.id)).status).toBe(404);
  });

  it("lists an author's drafts for that author and editors, newest first, and refuses everyone else", async () => {
    const older = await create('contributor', { title: 'Older draft' });
    now += 1000;
    const newer = await create('contributor', { title: 'Newer draft' });
    const submitted = await create('contributor', { title: 'Waiting', status: 'submitted' });
    const uid = people.contributor.uid;
    for (const name of ['contributor', 'editor'] as const) {
      const drafts = await api.list(`?author=${uid}&status=draft`, bearer(name));
      expect(drafts.status, drafts.text).toBe(200);
      const ids = articlePageSchema.parse(drafts.body).articles.map((article) => article.id);
      expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
      expect(ids).not.toContain(submitted.id);
      const all = articlePageSchema.parse((await api.list(`?author=${uid}&status=all`, bearer(name))).body);
      expect(all.articles.map((article) => article.id)).toEqual(
        expect.arrayContaining([older.id, newer.id, submitted.id]),
      );
    }
    expect((await api.list(`?author=${uid}&status=draft`, bearer('other'))).status).toBe(403);
    expect((await api.list(`?author=${uid}&status=draft`)).status).toBe(401);
    expect((await api.list(`?author=${uid}&status=secret`, bearer('editor'))).body.errors).toEqual([
      { field: 'status', message: 'status must be published, draft, submitted, hidden, scheduled or all.' },
    ]);
    // The public author list has none of them.
    expect(await publicIds(`?author=${uid}`)).not.toEqual(expect.arrayContaining([older.id]));
  });

  it('pages an author’s drafts with the same cursors as the public list', async () => {
    const author = await signUp(server.url, 'Pager');
    await setRole(server, author.email, 'contributor');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      now += 1000;
      made.unshift((await api.create(author.idToken, sampleArticle(`Page ${i}`))).body.id);
    }
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await api.list(`?author=${author.uid}&status=draft&limit=2${cursor}`, {
        authorization: `Bearer ${author.idToken}`,
      });
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.articles.map((article: { id: string }) => article.id));
      if (page.body.nextCursor === null) break;
      cursor = `&cursor=${page.body.nextCursor}`;
    }
    expect(seen).toEqual(made);
  });

  it('gives editors the review queue of submitted drafts, and nobody else', async () => {
    const submitted = await create('contributor', { title: 'Please review', status: 'submitted' });
    const queue = await api.list('?status=submitted', bearer('editor'));
    expect(queue.status).toBe(200);
    expect(queue.body.articles.map((article: { id: string }) => article.id)).toContain(submitted.id);
    for (const name of ['author', 'contributor', 'reader'] as const) {
      expect((await api.list('?status=submitted', bearer(name))).status, name).toBe(403);
    }
    // Every author's drafts are the /admin Posts list's filter: editors only (decision 0820, staffList.test.ts).
    expect((await api.list('?status=draft', bearer('editor'))).status).toBe(200);
    expect((await api.list('?status=draft', bearer('author'))).status).toBe(403);
  });

  it('keeps a draft’s creation time until it is first published, then the publication time for good', async () => {
    const created = now;
    const draft = await create('author', { status: 'draft', title: 'Slow cooking', tags: ['Food'] });
    expect(draft.date).toBe(new Date(created).toISOString());
    now += 60_000;
    const published = await api.update(token('author'), draft.id, {
      ...sampleArticle('Slow cooking'),
      status: 'published',
    });
    expect(published.status, published.text).toBe(200);
    expect(published.body.date).toBe(new Date(now).toISOString());
    const firstPublished = published.body.date;
    // The newest on the home list and on its tag's list, with that date.
    expect((await publicIds())[0]).toBe(draft.id);
    expect(await publicIds('?tag=food')).toContain(draft.id);
    // Unpublished and published again: the date stays the first publication's.
    now += 60_000;
    expect(
      (await api.update(token('author'), draft.id, { ...sampleArticle('Slow cooking'), status: 'draft' })).body.date,
    ).toBe(firstPublished);
    expect(await publicIds()).not.toContain(draft.id);
    now += 60_000;
    const again = await api.update(token('author'), draft.id, {
      ...sampleArticle('Slow cooking'),
      status: 'published',
    });
    expect(again.body.date).toBe(firstPublished);
  });

  it('lets an editor publish a submitted draft and mails its author', async () => {
    const submitted = await create('contributor', { title: 'Harbour at dawn', status: 'submitted' });
    // The contributor may not publish it themselves.
    const own = await api.update(token('contributor'), submitted.id, {
      ...sampleArticle('Harbour at dawn'),
      status: 'published',
    });
    expect(own.status).toBe(403);
    const before = sink.messages.length;
    const published = await api.update(token('editor'), submitted.id, {
      ...sampleArticle('Harbour at dawn'),
      status: 'published',
    });
    expect(published.status, published.text).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', authorId: people.contributor.uid });
    expect(await publicIds()).toContain(submitted.id);
    const mail = await sink.waitForMail(people.contributor.email, { after: before, subject: /published/ });
    expect(mail.subject).toBe('Your article is published on Harbour Notes');
    expect(mail.text).toContain('"Harbour at dawn"');
    expect(mail.text).toContain(`/article/${submitted.id}`);
  });

  it('hides an article with a reason: gone from every public read, seen with the reason by its author, mailed', async () => {
    const article = await create('author', { title: 'Rude words', tags: ['Quarrels'] });
    expect(await publicIds()).toContain(article.id);
    const before = sink.messages.length;
    const hidden = await api.request('POST', `/articles/${article.id}/hide`, {
      token: token('editor'),
      json: { reason: '  Insults a named person.  ' },
    });
    expect(hidden.status, hidden.text).toBe(200);
    expect(hidden.body.status).toBe('hidden');
    expect(hidden.body.moderation).toEqual({ reason: 'Insults a named person.', at: new Date(now).toISOString() });

    expect((await api.get(article.id)).status).toBe(404);
    expect((await api.get(article.id, bearer('other'))).status).toBe(404);
    expect(await publicIds()).not.toContain(article.id);
    expect(await publicIds(`?author=${people.author.uid}`)).not.toContain(article.id);
    expect(await publicIds('?tag=quarrels')).not.toContain(article.id);
    const search = await api.request('GET', '/search?q=rude');
    expect(search.body.results.map((result: { article: { id: string } }) => result.article.id)).not.toContain(
      article.id,
    );
    const tags = await api.request('GET', '/tags');
    expect(tags.body.tags.map((tag: { slug: string }) => tag.slug)).not.toContain('quarrels');

    const seenByAuthor = await api.get(article.id, bearer('author'));
    expect(seenByAuthor.status).toBe(200);
    expect(seenByAuthor.body.moderation.reason).toBe('Insults a named person.');
    const hiddenList = await api.list(`?author=${people.author.uid}&status=hidden`, bearer('author'));
    expect(hiddenList.body.articles[0]).toMatchObject({
      id: article.id,
      moderation: { reason: 'Insults a named person.' },
    });

    const mail = await sink.waitForMail(people.author.email, { after: before, subject: /hidden/ });
    expect(mail.subject).toBe('Your article on Harbour Notes was hidden');
    expect(mail.text).toContain('Insults a named person.');
    expect(mail.text).toContain('"Rude words"');

    // Its author may still edit it, but it stays hidden; only an editor changes its status.
    const edited = await api.update(token('author'), article.id, sampleArticle('Kinder words'));
    expect(edited.status).toBe(200);
    expect(edited.body.status).toBe('hidden');
    const republish = await api.update(token('author'), article.id, {
      ...sampleArticle('Kinder words'),
      status: 'published',
    });
    expect(republish.status).toBe(403);
    expect((await api.get(article.id)).status).toBe(404);
  });

  it('restores a hidden article to published with its date; restoring anything else is a conflict', async () => {
    const article = await create('author', { title: 'Back again' });
    now += 5000;
    await api.request('POST', `/articles/${article.id}/hide`, {
      token: token('editor'),
      json: { reason: 'Checking.' },
    });
    const restored = await api.request('POST', `/articles/${article.id}/restore`, { token: token('editor') });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ status: 'published', date: article.date });
    expect(restored.body.moderation).toBeUndefined();
    expect((await api.get(article.id)).status).toBe(200);
    expect(await publicIds()).toContain(article.id);
    const again = await api.request('POST', `/articles/${article.id}/restore`, { token: token('editor') });
    expect(again.status).toBe(409);
  });

  it('refuses hide and restore to non-editors and a hide without a good reason', async () => {
    const article = await create('other', { title: 'Fine as it is' });
    for (const name of ['author', 'contributor', 'reader', 'other'] as const) {
      const answer = await api.request('POST', `/articles/${article.id}/hide`, {
        token: token(name),
        json: { reason: 'x' },
      });
      expect(answer.status, name).toBe(403);
    }
    expect((await api.request('POST', `/articles/${article.id}/hide`, { json: { reason: 'x' } })).status).toBe(401);
    for (const body of [
      {},
      { reason: '   ' },
      { reason: 'x'.repeat(501) },
      { reason: 5 },
      { reason: 'ok', extra: 1 },
    ]) {
      const answer = await api.request('POST', `/articles/${article.id}/hide`, { token: token('editor'), json: body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors[0].field).toBe('reason');
    }
    const longest = await api.request('POST', `/articles/${article.id}/hide`, {
      token: token('editor'),
      json: { reason: '✓'.repeat(500) },
    });
    expect(longest.status).toBe(200);
    expect(
      (await api.request('POST', `/articles/${'x'.repeat(20)}/hide`, { token: token('editor'), json: { reason: 'x' } }))
        .status,
    ).toBe(404);
  });

  it('lets editors edit and delete any article; other authors still may not', async () => {
    const article = await create('other', { title: 'Typo heaven' });
    expect((await api.update(token('author'), article.id, sampleArticle('Mine'))).status).toBe(403);
    expect((await api.remove(token('author'), article.id)).status).toBe(403);
    const edited = await api.update(token('editor'), article.id, sampleArticle('Typo fixed'));
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Typo fixed', authorId: people.other.uid, status: 'published' });
    expect((await api.remove(token('editor'), article.id)).status).toBe(204);
    expect((await api.get(article.id)).status).toBe(404);
  });

  it('lets a contributor delete their own draft but not an article of theirs that is published', async () => {
    const draft = await create('contributor', { title: 'Scrap this' });
    expect((await api.remove(token('contributor'), draft.id)).status).toBe(204);
    const submitted = await create('contributor', { title: 'Keep this', status: 'submitted' });
    await api.update(token('editor'), submitted.id, { ...sampleArticle('Keep this'), status: 'published' });
    expect((await api.remove(token('contributor'), submitted.id)).status).toBe(403);
    expect((await api.get(submitted.id)).status).toBe(200);
  });

  it('refuses a contributor moving an article an editor published to another status, so it cannot be rewritten or deleted (issue 35, finding 7)', async () => {
    const submitted = await create('contributor', { title: 'As the editor left it', status: 'submitted' });
    const published = await api.update(token('editor'), submitted.id, {
      ...sampleArticle('As the editor left it'),
      status: 'published',
    });
    expect(published.status).toBe(200);
    for (const status of ['draft', 'submitted'] as const) {
      const moved = await api.update(token('contributor'), submitted.id, { ...sampleArticle('Rewritten'), status });
      expect(moved.status, status).toBe(403);
      expect(moved.body.detail).toBe('An editor published this article: only an editor can change or delete it.');
    }
    // Nor rewritten in place (it would be published without review), nor deleted.
    expect((await api.update(token('contributor'), submitted.id, sampleArticle('Rewritten'))).status).toBe(403);
    const removed = await api.remove(token('contributor'), submitted.id);
    expect(removed.status).toBe(403);
    expect(removed.body.detail).toBe('An editor published this article: only an editor can change or delete it.');
    const after = await api.get(submitted.id);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ status: 'published', title: 'As the editor left it' });
    // An editor still may; an author still moves their own published article back to a draft.
    const own = await create('author', { title: 'Mine to take back' });
    expect(
      (await api.update(token('author'), own.id, { ...sampleArticle('Mine to take back'), status: 'draft' })).status,
    ).toBe(200);
    expect(
      (await api.update(token('editor'), submitted.id, { ...sampleArticle('Edited'), status: 'draft' })).status,
    ).toBe(200);
  });

  it('counts only published articles in the members list', async () => {
    const counted = await signUp(server.url, 'Counted');
    await api.create(counted.idToken, sampleArticle('Out'));
    await api.create(counted.idToken, { ...sampleArticle('In the drawer'), status: 'draft' });
    const members = await api.request('GET', `/members?q=${encodeURIComponent(counted.email)}`, {
      token: token('editor'),
    });
    expect(members.body.members[0].articleCount).toBe(1);
  });
});
