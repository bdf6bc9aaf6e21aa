import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { ArticleStatus } from '../../shared/articleSchema.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { ArticleCursor } from './articleCursor.ts';
import { isPublished } from './publishedArticles.ts';
import { unchangedImageOrigin, type ImageOrigin } from './imageOrigin.ts';
import {
  selectWithAuthors,
  served,
  type ArticleDetailRow,
  type ArticleRow,
  type AuthorColumns,
} from './articleRows.ts';

/**
 * Which articles a list holds: all of them, one author's, or those with one tag (by slug);
 * of one status (published unless said otherwise: what everyone may see), or of every status
 * (`all`: one author's list for that author and editors).
 */
export interface ListFilter {
  authorId?: string;
  tagSlug?: string;
  status?: ArticleStatus | 'all';
  /** Only articles whose title holds this text, case aside (the staff list: never cached). */
  titleSearch?: string;
}

/**
 * The list query: a keyset range on the (status, date desc, id desc) index, or with an author on
 * the (author_id, status, date desc, id desc) one (every status: (author_id, date desc, id desc)),
 * read in index order, so its cost does not grow with
 * the table (articlesQueryPlan.test.ts checks the plans).
 */
export function listPageQuery(
  db: Kysely<DatabaseSchema>,
  rows: number,
  after: ArticleCursor | undefined,
  filter: ListFilter = {},
) {
  if (filter.tagSlug !== undefined) return tagPageQuery(db, rows, after, filter.tagSlug);
  let query = selectWithAuthors(db);
  if (filter.authorId !== undefined) query = query.where('articles.author_id', '=', filter.authorId);
  const status = filter.status ?? 'published';
  // A scheduled article is stored as a draft with its time (decision 0851).
  if (status === 'scheduled')
    query = query.where('articles.status', '=', 'draft').where('articles.publish_at', 'is not', null);
  else if (status !== 'all') {
    query = query.where('articles.status', '=', status);
    if (status === 'draft') query = query.where('articles.publish_at', 'is', null);
  }
  if (filter.titleSearch !== undefined) query = query.where(titleHolds(filter.titleSearch));
  if (after) {
    // (date, id) < (d, i), spelled portably. The redundant `date <= d` gives both planners
    // a range on the (date desc, id desc) index; without it SQLite splits the OR into two
    // index searches and sorts the union, which grows with the list.
    query = query
      .where('articles.date', '<=', after.date)
      .where((eb) =>
        eb.or([
          eb('articles.date', '<', after.date),
          eb.and([eb('articles.date', '=', after.date), eb('articles.id', '<', after.id)]),
        ]),
      );
  }
  return query.orderBy('articles.date', 'desc').orderBy('articles.id', 'desc').limit(rows);
}

/**
 * One tag's published articles, newest first: a keyset range on article_tags' (slug, date desc,
 * article_id desc) index (the article's date is copied there), joined to the articles.
 */
function tagPageQuery(db: Kysely<DatabaseSchema>, rows: number, after: ArticleCursor | undefined, slug: string) {
  let query = selectWithAuthors(db)
    .innerJoin('article_tags', 'article_tags.article_id', 'articles.id')
    .where('article_tags.slug', '=', slug)
    .where(isPublished('articles'));
  if (after) {
    query = query
      .where('article_tags.date', '<=', after.date)
      .where((eb) =>
        eb.or([
          eb('article_tags.date', '<', after.date),
          eb.and([eb('article_tags.date', '=', after.date), eb('article_tags.article_id', '<', after.id)]),
        ]),
      );
  }
  return query.orderBy('article_tags.date', 'desc').orderBy('article_tags.article_id', 'desc').limit(rows);
}

/**
 * `lower(title) LIKE %text%` with the pattern's own characters escaped, spelled the same on
 * SQLite and PostgreSQL (whose LIKE differs in case and default escape). It reads the list's
 * index in order and filters: editors' searches only, decision 0820.
 */
function titleHolds(text: string) {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(articles.title) like ${pattern} escape '\\'`;
}

/** Published articles' keys: the sitemap's reads, on the (status, date desc, id desc) index. */
function publishedKeys(db: Kysely<DatabaseSchema>) {
  return db.selectFrom('articles').select(['id', 'date']).where('status', '=', 'published');
}

/** (date, id) < (after.date, after.id) on the articles table alone; see listPage for why it is spelled so. */
function keysetAfter<Q extends SelectQueryBuilder<DatabaseSchema, 'articles', { id: string; date: number }>>(
  query: Q,
  after: ArticleCursor | undefined,
): Q {
  if (!after) return query;
  return query
    .where('date', '<=', after.date)
    .where((eb) =>
      eb.or([eb('date', '<', after.date), eb.and([eb('date', '=', after.date), eb('id', '<', after.id)])]),
    ) as Q;
}

/** The articles' reads (the read model, articleReads.ts, serves them to everyone else). */
export function createArticleReadQueries(db: Kysely<DatabaseSchema>, images: ImageOrigin = unchangedImageOrigin) {
  const withAuthors = () => selectWithAuthors(db);
  return {
    async find(id: string): Promise<ArticleDetailRow | undefined> {
      const row = await withAuthors()
        .select(['articles.description_html as descriptionHtml', 'articles.custom_excerpt as customExcerpt'])
        .where('articles.id', '=', id)
        .executeTakeFirst();
      return row && served(row, images);
    },

    /** These articles' titles by id, whatever their status. */
    async titlesOf(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom('articles').select(['id', 'title']).where('id', 'in', ids).execute();
      return new Map(rows.map((row) => [row.id, row.title]));
    },

    /** Published articles by id, in the order of `ids` (others left out): search results. */
    async findMany(ids: readonly string[]): Promise<ArticleRow[]> {
      if (ids.length === 0) return [];
      // The index holds published articles only; checked again in case one left since the match.
      const rows = await withAuthors()
        .where('articles.id', 'in', ids)
        .where('articles.status', '=', 'published')
        .execute();
      const byId = new Map(rows.map((row) => [row.id, served(row, images)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** `count` rows newest first, starting strictly after `after` (pages: http/keysetPage.ts). */
    async listPage(count: number, after: ArticleCursor | undefined, filter: ListFilter = {}): Promise<ArticleRow[]> {
      const rows = await listPageQuery(db, count, after, filter).execute();
      return rows.map((row) => served(row, images));
    },

    /**
     * The newest `limit` articles with their rendered bodies, newest first: what a feed carries
     * (all articles, or one tag's).
     */
    async newestWithBodies(limit: number, filter: ListFilter = {}): Promise<ArticleDetailRow[]> {
      const rows = await listPageQuery(db, limit, undefined, filter)
        .select(['articles.description_html as descriptionHtml', 'articles.custom_excerpt as customExcerpt'])
        .execute();
      return rows.map((row) => served(row, images));
    },

    /** An account's id and display name, whether or not it wrote anything; undefined when there is none. */
    async author(id: string): Promise<{ id: string; name: string | null } | undefined> {
      return db
        .withTables<AuthorColumns>()
        .selectFrom('users')
        .select(['users.id', 'users.display_name as name'])
        .where('users.id', '=', id)
        .executeTakeFirst();
    },

    /** Up to `limit` ids of accounts with at least one published article, in id order, after `after`: for sitemaps. */
    async authorIds(limit: number, after: string | undefined): Promise<string[]> {
      let query = db.selectFrom('articles').select('author_id').distinct().where('status', '=', 'published');
      if (after !== undefined) query = query.where('author_id', '>', after);
      const rows = await query.orderBy('author_id').limit(limit).execute();
      return rows.map((row) => row.author_id);
    },

    /** Published articles' ids and dates only, newest first, strictly after `after`: what a sitemap lists. */
    async listLinks(limit: number, after: ArticleCursor | undefined): Promise<{ id: string; date: number }[]> {
      return keysetAfter(publishedKeys(db), after).orderBy('date', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /**
     * The key of the `count`-th published article after `after` when at least one more follows it, else
     * undefined: where the next page of `count` starts, found by walking the index, not by loading rows.
     */
    async keyAfterSkipping(count: number, after: ArticleCursor | undefined): Promise<ArticleCursor | undefined> {
      const rows = await keysetAfter(publishedKeys(db), after)
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .limit(2)
        .offset(count - 1)
        .execute();
      return rows.length === 2 ? { date: rows[0]!.date, id: rows[0]!.id } : undefined;
    },

    /** How many published articles each of these accounts has; 0s are left out. */
    async countPublishedByAuthors(uids: readonly string[]): Promise<Map<string, number>> {
      if (uids.length === 0) return new Map();
      const rows = await db
        .selectFrom('articles')
        .select((eb) => ['author_id', eb.fn.countAll<number | string>().as('count')])
        .where('author_id', 'in', uids)
        .where('status', '=', 'published')
        .groupBy('author_id')
        .execute();
      // PostgreSQL's count is a bigint, which pg returns as a string.
      return new Map(rows.map((row) => [row.author_id, Number(row.count)]));
    },
  };
}
