import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleDetailSchema, articlePageSchema } from '../../shared/articleSchema.ts';
import type { Role } from '../../shared/roles.ts';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

/**
 * The `/admin` Posts list's read (DESIGN.md §9.6, decision 0820): `GET /api/articles?status=all`
 * without an author lists every author's articles of every status for editors and owners, paged
 * by cursor, filtered by status and searched by title. An HTTP contract: SQLite only.
 */
describe.each(contractDatabases())('the staff articles list on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let now = Date.parse('2026-11-01T10:00:00.000Z');
  const people = {} as Record<Role, TestUser>;
  const made: { id: string; title: string; status: string; author: Role }[] = [];

  beforeAll(async () => {
    server = await startTestApp(
      dialectCase,
      { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000', RATE_LIMIT_SIGNUP_PER_IP: '100000' },
      { clock: () => now },
    );
    api = articlesApi(server.url);
    for (const role of ['reader', 'contributor', 'author', 'editor', 'owner'] as const) {
      people[role] = await signUp(server.url, role[0]!.toUpperCase() + role.slice(1));
      if (role !== 'author') await setRole(server, people[role].email, role);
    }
    const write = async (author: Role, title: string, status: string) => {
      now += 1000;
      const created = await api.create(people[author].idToken, { ...sampleArticle(title), title, status });
      expect(created.status, created.text).toBe(201);
      made.unshift({ id: articleDetailSchema.parse(created.body).id, title, status, author });
    };
    await write('author', 'Sharpening a chisel', 'published');
    await write('author', 'Plans for the shed (100% done)', 'draft');
    await write('contributor', 'Oiling a plane', 'submitted');
    await write('contributor', 'The SHARPENING stone', 'draft');
    await write('editor', 'Glue and clamps', 'published');
    const hidden = await api.request('POST', `/articles/${made[0]!.id}/hide`, {
      token: people.editor.idToken,
      json: { reason: 'Off topic.' },
    });
    expect(hidden.status, hidden.text).toBe(200);
    made[0]!.status = 'hidden';
  });
  afterAll(async () => {
    await server?.close();
  });

  const bearer = (role: Role) => ({ authorization: `Bearer ${people[role].idToken}` });
  const listAll = async (query: string, role: Role) => {
    const seen: { id: string; title: string; status: string; authorName: string | null }[] = [];
    let cursor = '';
    for (;;) {
      const page = await api.list(`?status=${query}&limit=2${cursor}`, bearer(role));
      expect(page.status, page.text).toBe(200);
      // Only the public list (published, no search) may be cached and shared.
      if (!query.startsWith('published&q=&')) expect(page.headers.get('cache-control')).toBe('private, no-store');
      seen.push(...articlePageSchema.parse(page.body).articles);
      if (page.body.nextCursor === null) return seen;
      cursor = `&cursor=${page.body.nextCursor}`;
    }
  };

  it('gives editors and owners every article of every author and status, newest first, page by page', async () => {
    for (const role of ['editor', 'owner'] as const) {
      const seen = await listAll('all', role);
      expect(seen.map((article) => [article.id, article.status])).toEqual(
        made.map((article) => [article.id, article.status]),
      );
      expect(seen.find((article) => article.id === made[1]!.id)?.authorName).toBe('Contributor');
    }
  });

  it('refuses readers, contributors and authors, and asks anyone else to sign in', async () => {
    for (const role of ['reader', 'contributor', 'author'] as const) {
      for (const query of ['?status=all', '?status=draft', '?status=hidden', '?status=all&q=plane', '?q=plane']) {
        const answer = await api.list(query, bearer(role));
        expect(answer.status, `${role} ${query}`).toBe(403);
        expect(answer.body.detail).toBe("Only editors can list every author's articles.");
      }
    }
    const anonymous = await api.list('?status=all');
    expect(anonymous.status).toBe(401);
    expect((await api.list('?q=plane')).status).toBe(401);
    expect((await api.list('?status=all', { authorization: 'Bearer not-a-token' })).status).toBe(401);
  });

  it('filters by one status', async () => {
    for (const status of ['draft', 'submitted', 'hidden', 'published'] as const) {
      const seen = await listAll(`${status}&q=&`, 'editor');
      expect(
        seen.map((article) => article.id),
        status,
      ).toEqual(made.filter((article) => article.status === status).map((article) => article.id));
    }
  });

  it('searches titles whatever their case, taking % and _ as the letters they are', async () => {
    const titles = async (query: string) =>
      articlePageSchema
        .parse((await api.list(`?status=all&q=${encodeURIComponent(query)}`, bearer('editor'))).body)
        .articles.map((article) => article.title);
    expect(await titles('sharpening')).toEqual(['The SHARPENING stone', 'Sharpening a chisel']);
    expect(await titles('  Plane ')).toEqual(['Oiling a plane']);
    expect(await titles('100%')).toEqual(['Plans for the shed (100% done)']);
    expect(await titles('%')).toEqual(['Plans for the shed (100% done)']);
    expect(await titles('_')).toEqual([]);
    const drafts = await api.list(`?status=draft&q=sharpening`, bearer('owner'));
    expect(drafts.body.articles.map((article: { title: string }) => article.title)).toEqual(['The SHARPENING stone']);
  });

  it('answers bad queries with a 400 naming the parameter', async () => {
    const long = await api.list(`?status=all&q=${'a'.repeat(101)}`, bearer('editor'));
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([{ field: 'q', message: 'q must be one text of at most 100 characters.' }]);
    const twice = await api.list('?status=all&q=a&q=b', bearer('editor'));
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0].field).toBe('q');
    const withTag = await api.list('?q=plane&tag=tools', bearer('editor'));
    expect(withTag.status).toBe(400);
    expect(withTag.body.detail).toBe('q cannot be combined with tag: tag lists are public.');
    const badCursor = await api.list('?status=all&cursor=nope', bearer('editor'));
    expect(badCursor.status).toBe(400);
  });
});
