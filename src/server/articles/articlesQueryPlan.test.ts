import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { storageDatabases, type TestDatabase } from '../../../test/support/testDatabases.ts';
import { newArticleId } from './articleId.ts';
import { createArticlesRepository, listPageQuery, type ListFilter } from './articlesRepository.ts';

// Budget (docs/architecture.md): the first page with 100,000 articles as fast as with 100. That holds only
// if every page is a range read on the (status, date desc, id desc) index in index order (the public list
// is of published articles only; drafts, submitted and hidden ones are mixed in below): no full
// scan of articles, no sort of the matching rows, no OFFSET, no COUNT. Each row's tag names come in
// the same query, by article_tags' primary key; sorting one article's tags (at most TAGS_MAX) by
// their position is the only sort SQLite's plan may show.
const SORT_OF_ROWS = /TEMP B-TREE(?! FOR json_group_array\(ORDER BY\))/;
const ARTICLES = 3000;

describe.each(storageDatabases())('the article list query plan on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase;
  let database: Database;
  const cursor = { date: 1_700_000_000_000 + 1500 * 1000, id: 'M'.repeat(20) };

  beforeAll(async () => {
    testDatabase = await dialectCase.create();
    database = openDatabase(testDatabase.config);
    await migrateToLatest(database);
    // Enough rows that PostgreSQL's planner would rather scan and sort if the index did not fit.
    await sql`insert into users (id, email, password_hash, display_name, photo_url, email_verified, disabled,
      created_at, last_login_at, password_updated_at, valid_since)
      values ('plan-author', 'plan@example.com', 'x', 'Plan', null, 0, 0, 0, 0, 0, 0)`.execute(database.db);
    for (let i = 0; i < 200; i++) {
      await sql`insert into users (id, email, password_hash, display_name, photo_url, email_verified, disabled,
        created_at, last_login_at, password_updated_at, valid_since)
        values (${`other-${i}`}, ${`other-${i}@example.com`}, 'x', null, null, 0, 0, 0, 0, 0, 0)`.execute(database.db);
    }
    const rows = Array.from({ length: ARTICLES }, (_, i) => ({
      id: newArticleId(),
      image: 'https://images.example.com/a.jpg',
      title: `Article ${i}`,
      description: 'Text.',
      // A prolific author among many: a third of the articles, so paging them must walk the author index in order.
      authorId: i % 3 === 0 ? 'plan-author' : `other-${i % 200}`,
      date: 1_700_000_000_000 + i * 1000,
      status: i % 10 === 0 ? ('draft' as const) : i % 7 === 0 ? ('submitted' as const) : ('published' as const),
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await database.db
        .transaction()
        .execute((trx) => createArticlesRepository(trx).insertBatch(rows.slice(start, start + 500)));
    }
    await sql`analyze`.execute(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.dispose();
  });

  async function plan(
    after: typeof cursor | undefined,
    authorId?: string,
    status?: ListFilter['status'],
  ): Promise<string> {
    const compiled = listPageQuery(database.db, 20, after, { authorId, status }).compile();
    const prefix = database.dialect === 'sqlite' ? 'explain query plan ' : 'explain (format text) ';
    const result = await database.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(prefix + compiled.sql, [...compiled.parameters]),
    );
    return result.rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
  }

  it.each([
    ['the first page', undefined],
    ['a page after a cursor', cursor],
  ])('reads %s as an index range in order, without a scan or a sort', async (_name, after) => {
    const text = await plan(after);
    if (database.dialect === 'sqlite') {
      expect(text).toMatch(/SEARCH articles USING INDEX articles_status_date_id \(status=\?/);
      if (after) expect(text).toMatch(/SEARCH articles USING INDEX articles_status_date_id \(status=\? AND date<\?\)/);
      expect(text).not.toMatch(/SCAN articles(?! USING INDEX)/);
      expect(text).not.toMatch(SORT_OF_ROWS);
      // Each row's author by primary key, not a scan of users per article.
      expect(text).toMatch(/SEARCH users USING INDEX sqlite_autoindex_users_1 \(id=\?\)/);
      // Its tag names in the same query: one lookup of article_tags' primary key per article.
      expect(text).toMatch(
        /CORRELATED SCALAR SUBQUERY[\s\S]*SEARCH article_tags USING INDEX sqlite_autoindex_article_tags_1 \(article_id=\?\)/,
      );
    } else {
      expect(text).toMatch(/Index Scan using articles_status_date_id on articles/);
      expect(text).not.toMatch(/Seq Scan on articles/);
      expect(text).not.toMatch(/\bSort\b/);
      expect(text).toMatch(/Index Scan using users_pkey on users/);
      // Its tag names in the same query, aggregated per article.
      expect(text).toMatch(/SubPlan[\s\S]*Aggregate/);
    }
    expect(text).not.toMatch(/OFFSET|count\(/i);
  });

  it.each([
    ['the first page', undefined],
    ['a page after a cursor', cursor],
  ])("reads %s of one author's articles as a range of the author index, without a sort", async (_name, after) => {
    const text = await plan(after, 'plan-author');
    if (database.dialect === 'sqlite') {
      expect(text).toMatch(/SEARCH articles USING INDEX articles_author_status_date_id \(author_id=\? AND status=\?/);
      expect(text).not.toMatch(SORT_OF_ROWS);
    } else {
      // PostgreSQL picks either index by its statistics; both read in order and stop at the limit.
      expect(text, text).toMatch(/Index Scan using articles_(author_)?status_date_id on articles/);
      expect(text).not.toMatch(/Seq Scan on articles/);
      expect(text).not.toMatch(/\bSort\b/);
    }
  });

  it.each([
    ['the review queue (submitted drafts of every author)', undefined, 'submitted' as const, /articles_status_date_id/],
    ["one author's articles of every status", 'plan-author', 'all' as const, /articles_author_date_id/],
    // PostgreSQL picks either status index by its statistics; both read in order.
    ["one author's drafts", 'plan-author', 'draft' as const, /articles_(author_)?status_date_id/],
  ])('reads %s as an index range in order, without a sort', async (_name, authorId, status, index) => {
    for (const after of [undefined, cursor]) {
      const text = await plan(after, authorId, status);
      expect(text, text).toMatch(index);
      expect(text, text).not.toMatch(/Seq Scan on articles|SCAN articles(?! USING INDEX)/);
      // SQLite reads them in index order. PostgreSQL may instead fetch the few rows the range
      // holds (one author's drafts) through a bitmap of that same index and sort them: the
      // rows read are still bounded by the index range, not the table.
      if (database.dialect === 'sqlite') expect(text, text).not.toMatch(SORT_OF_ROWS);
    }
  });

  it('returns the same rows as sorting the published articles', async () => {
    const all = await database.db
      .selectFrom('articles')
      .select(['id', 'date'])
      .where('status', '=', 'published')
      .execute();
    const before = (a: { date: number; id: string }, b: { date: number; id: string }) =>
      a.date !== b.date ? a.date > b.date : a.id > b.id;
    const expected = all
      .filter((row) => before(cursor, row))
      .sort((a, b) => (before(a, b) ? -1 : 1))
      .slice(0, 21)
      .map((row) => row.id);
    const page = await listPageQuery(database.db, 21, cursor).execute();
    expect(page.map((row) => row.id)).toEqual(expected);
  });
});
