import { SqliteAdapter, sql, type Kysely, type Transaction } from 'kysely';
import { tagSlug } from '../../shared/tags.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { isPublished } from './publishedArticles.ts';

type Executor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/**
 * Replaces an article's tags inside the caller's transaction. A tag seen for the first time is
 * stored with this spelling; a known slug keeps the spelling first used (DESIGN.md §8.5).
 */
export async function writeArticleTags(
  trx: Executor,
  articleId: string,
  date: number,
  names: readonly string[],
): Promise<void> {
  await trx.deleteFrom('article_tags').where('article_id', '=', articleId).execute();
  if (names.length === 0) return;
  const tags = names.map((name) => ({ slug: tagSlug(name), name }));
  await trx
    .insertInto('tags')
    .values(tags)
    .onConflict((conflict) => conflict.column('slug').doNothing())
    .execute();
  await trx
    .insertInto('article_tags')
    .values(tags.map((tag, position) => ({ article_id: articleId, slug: tag.slug, position, date })))
    .execute();
}

/** What the tag names column holds as the driver returns it: JSON text on SQLite, a text[] on PostgreSQL. */
export type StoredTagNames = string | string[];

/**
 * The article's tag names in the author's order, as a column of the query that reads the article
 * (`articles` in its FROM): a correlated subquery on article_tags' primary key, aggregated in the
 * database, so a page of articles and their tags are one query. The aggregate orders by position
 * itself rather than trusting a subquery's order; no tags is `[]` on both.
 */
export function tagNamesColumn(db: Executor) {
  const names = db
    .selectFrom('article_tags')
    .innerJoin('tags', 'tags.slug', 'article_tags.slug')
    .where('article_tags.article_id', '=', sql.ref<string>('articles.id'));
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? names.select(sql<string>`json_group_array(tags.name order by article_tags.position)`.as('names'))
    : names.select(sql<string[]>`coalesce(array_agg(tags.name order by article_tags.position), '{}')`.as('names'));
}

/** The column's value as the tag names (pg parses the text[] itself; SQLite's JSON text is parsed here). */
export function tagNamesFrom(stored: StoredTagNames | null): string[] {
  if (stored === null) return [];
  return typeof stored === 'string' ? (JSON.parse(stored) as string[]) : stored;
}

export interface TagCount {
  name: string;
  slug: string;
  count: number;
}

/** The most used tags on published articles, most used first (ties by slug). */
export async function mostUsedTags(db: Executor, limit: number): Promise<TagCount[]> {
  const rows = await db
    .selectFrom('article_tags')
    .innerJoin('tags', 'tags.slug', 'article_tags.slug')
    .innerJoin('articles', 'articles.id', 'article_tags.article_id')
    .select(['tags.name', 'tags.slug', sql<number | string>`count(*)`.as('count')])
    .where(isPublished('articles'))
    .groupBy(['tags.slug', 'tags.name'])
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('tags.slug')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ name: row.name, slug: row.slug, count: Number(row.count) }));
}

/** The tag's name when at least one published article carries it, else undefined. */
export async function publishedTagName(db: Executor, slug: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('article_tags')
    .innerJoin('tags', 'tags.slug', 'article_tags.slug')
    .innerJoin('articles', 'articles.id', 'article_tags.article_id')
    .select('tags.name')
    .where('article_tags.slug', '=', slug)
    .where(isPublished('articles'))
    .limit(1)
    .executeTakeFirst();
  return row?.name;
}

/** Up to `limit` slugs of tags on published articles, in slug order, after `after`: for sitemaps. */
export async function publishedTagSlugs(db: Executor, limit: number, after: string | undefined): Promise<string[]> {
  let query = db
    .selectFrom('article_tags')
    .innerJoin('articles', 'articles.id', 'article_tags.article_id')
    .select('article_tags.slug')
    .distinct()
    .where(isPublished('articles'));
  if (after !== undefined) query = query.where('article_tags.slug', '>', after);
  const rows = await query.orderBy('article_tags.slug').limit(limit).execute();
  return rows.map((row) => row.slug);
}
