import { describe, expect, it } from 'vitest';
import { articlePageSchema, type Article } from '../../shared/articleSchema.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { encodeArticleCursor } from './articleCursor.ts';
import { newArticleId } from './articleId.ts';
import { createArticlesRepository } from './articlesRepository.ts';
import { articlesTestApp, sampleArticle, type Answer } from '../../../test/support/articlesTestClient.ts';

/** Newest first: date descending, then id descending. */
function isStrictlyBefore(a: Article, b: Article): boolean {
  const da = Date.parse(a.date);
  const db = Date.parse(b.date);
  return da > db || (da === db && a.id > b.id);
}

describe.each(storageDatabases())('paging the article list on $dialect', (dialectCase) => {
  const app = articlesTestApp(dialectCase);

  async function walk(limit: number, onPage?: () => Promise<void>): Promise<Article[]> {
    const seen: Article[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer: Answer = await app.api.list(
        `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(answer.status, answer.text).toBe(200);
      const page = articlePageSchema.parse(answer.body);
      expect(page.articles.length).toBeLessThanOrEqual(limit);
      if (page.nextCursor !== null) expect(page.articles).toHaveLength(limit);
      seen.push(...page.articles);
      cursor = page.nextCursor;
      pages += 1;
      if (pages > 1000) throw new Error('the walk never ended');
      await onPage?.();
    } while (cursor !== null);
    return seen;
  }

  it('returns an empty first page with no next cursor when there are no articles', async () => {
    const answer = await app.api.list();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ articles: [], nextCursor: null });
  });

  it('defaults to 20 per page, accepts 1 to 100 and rejects anything else with 400', async () => {
    for (let i = 0; i < 23; i++)
      await app.api.create(i % 2 ? app.alice.idToken : app.bob.idToken, sampleArticle(`Bulk ${i}`));
    const first = await app.api.list();
    expect(first.body.articles).toHaveLength(20);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect((await app.api.list('?limit=1')).body.articles).toHaveLength(1);
    const all = await app.api.list('?limit=100');
    expect(all.body.articles).toHaveLength(23);
    expect(all.body.nextCursor).toBeNull();

    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=abc',
      '?limit=',
      '?limit=-1',
      '?limit=2.5',
      '?limit=1e1',
      '?limit=1&limit=2',
    ]) {
      const answer = await app.api.list(query);
      expect(answer.status, query).toBe(400);
      expect(answer.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(answer.body.errors).toEqual([{ field: 'limit', message: 'limit must be a whole number from 1 to 100.' }]);
    }
  });

  it('rejects garbage and tampered cursors with 400, never 500', async () => {
    const first = await app.api.list('?limit=2');
    const cursor: string = first.body.nextCursor;
    const tampered = [
      'garbage',
      '!!!!',
      '',
      `${cursor}x`,
      cursor.slice(0, -1),
      Buffer.from('not.a.cursor').toString('base64url'),
      Buffer.from('-5.AAAAAAAAAAAAAAAAAAAA').toString('base64url'),
      Buffer.from("1.x' or 1=1 --").toString('base64url'),
      Buffer.from('99999999999999999999.A').toString('base64url'),
      Buffer.from(JSON.stringify({ date: 1, id: 'a' })).toString('base64url'),
      'A'.repeat(5000),
    ];
    for (const bad of tampered) {
      const answer = await app.api.list(`?limit=2&cursor=${encodeURIComponent(bad)}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    }
    expect((await app.api.list(`?cursor=${cursor}&cursor=${cursor}`)).status).toBe(400);
  });

  it('breaks ties on identical dates by id, so equal-date articles page without loss', async () => {
    const repository = createArticlesRepository(app.server.database.db);
    const date = Date.parse('2001-02-03T04:05:06.007Z');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const id = newArticleId();
      ids.push(id);
      await repository.insert({ ...sampleArticle(`Tie ${i}`), id, authorId: app.alice.uid, date });
    }
    const seen = await walk(3);
    const ties = seen.filter((article) => article.date === new Date(date).toISOString());
    expect(ties.map((article) => article.id)).toEqual([...ids].sort().reverse());
    // A cursor that points into the middle of the tie starts right after that id.
    const sorted = [...ids].sort().reverse();
    const after = await app.api.list(`?limit=100&cursor=${encodeArticleCursor({ date, id: sorted[4]! })}`);
    expect(after.body.articles.map((article: Article) => article.id)).toEqual(sorted.slice(5));
  });

  it('walks every article exactly once, newest first, while others insert and delete', async () => {
    const repository = createArticlesRepository(app.server.database.db);
    // Articles spread over the past, so concurrent inserts land both ahead of and behind the walk.
    const base = Date.now() - 1_000_000;
    const doomed = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const id = newArticleId();
      await repository.insert({ ...sampleArticle(`Walk ${i}`), id, authorId: app.bob.uid, date: base + i * 1000 });
      if (i % 4 === 0) doomed.add(id);
    }
    const before = new Set((await walk(100)).map((article) => article.id));
    const stable = [...before].filter((id) => !doomed.has(id));

    let mutating = true;
    const added = new Set<string>();
    const mutator = (async () => {
      let round = 0;
      while (mutating || doomed.size > 0) {
        round += 1;
        const created = await app.api.create(app.bob.idToken, sampleArticle(`Concurrent ${round}`));
        added.add(created.body.id);
        // Back-dated too: lands in the part of the list the walk has not reached yet.
        const id = newArticleId();
        await repository.insert({
          ...sampleArticle(`Back-dated ${round}`),
          id,
          authorId: app.bob.uid,
          date: base + round * 997,
        });
        added.add(id);
        const next = doomed.values().next();
        if (!next.done) {
          expect((await app.api.remove(app.bob.idToken, next.value)).status).toBe(204);
          doomed.delete(next.value);
        }
      }
    })();
    const seen = await walk(3, () => new Promise((resolve) => setImmediate(resolve)));
    mutating = false;
    await mutator;

    const ids = seen.map((article) => article.id);
    expect(new Set(ids).size, 'no article is repeated').toBe(ids.length);
    for (const id of stable) expect(ids, `stable article ${id} was skipped`).toContain(id);
    for (const id of ids) expect(before.has(id) || added.has(id), `unknown id ${id}`).toBe(true);
    for (let i = 1; i < seen.length; i++) {
      expect(isStrictlyBefore(seen[i - 1]!, seen[i]!), `order at ${i}`).toBe(true);
    }
  });
});
