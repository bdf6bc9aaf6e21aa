import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import { renderMarkdown } from '../../shared/markdown/renderMarkdown.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { ArticleCursor } from './articleCursor.ts';
import { tagNamesOf, writeArticleTags } from './articleTags.ts';
import { isPublished } from './publishedArticles.ts';
import { indexArticle } from './search/searchIndex.ts';
import { unchangedImageOrigin, type ImageOrigin } from './imageOrigin.ts';

/**
 * All SQL of the articles feature. The reads outside its own tables: the author's current
 * display name and picture, from the columns of identity's users table declared here, and
 * the author page's slug (the authors feature's author_profiles).
 */
type AuthorColumns = {
  users: { id: string; display_name: string | null; photo_url: string | null };
};

export interface ArticleRow {
  id: string;
  image: string;
  title: string;
  description: string;
  /** The description's rendered text, at most 300 characters. */
  excerpt: string;
  authorId: string;
  authorName: string | null;
  authorSlug: string | null;
  authorPhotoUrl: string | null;
  /** Epoch milliseconds. */
  date: number;
  /** Tag names in the author's order. */
  tags: string[];
}

/** One article with its rendered body: what the article page shows. */
export interface ArticleDetailRow extends ArticleRow {
  descriptionHtml: string;
}

export interface ArticleFields {
  image: string;
  title: string;
  description: string;
  /** Tag names, one per slug (articleSchema.ts merges them). Absent on an update: the tags stay. */
  tags?: string[] | undefined;
}

/** The author's account no longer exists (deleted after the caller's token was checked). */
export class AuthorGoneError extends Error {
  override name = 'AuthorGoneError';
}

/** An article as written: its fields plus what the server decides (id, author, date). */
export type NewArticle = ArticleFields & { id: string; authorId: string; date: number };

/**
 * Told of every article written through the API (created or changed), inside the writing
 * transaction: a failing listener undoes the write. `trx` is for the listener's own tables.
 */
export type ArticleWrittenListener = (
  article: { id: string } & ArticleFields,
  trx: Transaction<DatabaseSchema>,
) => Promise<void>;

/**
 * The stored columns of an article's fields: the Markdown and what it renders to (decision 0040),
 * with this server's image URLs made origin-free (decision 0300). The renderer keeps only
 * absolute URLs, so it reads the Markdown as written and its HTML is made origin-free after.
 */
function fieldColumns(fields: ArticleFields, images: ImageOrigin) {
  const { html, excerpt, text } = renderMarkdown(fields.description, { ownImageOrigin: images.origin });
  return {
    columns: {
      image: images.toStored(fields.image),
      title: fields.title,
      description: images.toStored(fields.description),
      description_html: images.toStored(html),
      excerpt,
    },
    /** The plain text, for the search index. */
    text,
  };
}

function articleRecord(article: NewArticle, images: ImageOrigin) {
  const { columns, text } = fieldColumns(article, images);
  return {
    record: { id: article.id, ...columns, author_id: article.authorId, date: article.date },
    text,
  };
}

/** Tags, then the search index entry (which reads the tags): in the article's transaction. */
async function writeTagsAndIndex(trx: Kysely<DatabaseSchema>, article: NewArticle, text: string) {
  await writeArticleTags(trx, article.id, article.date, article.tags ?? []);
  await indexArticle(trx, article.id, text);
}

/** The rows with their tag names. */
async function withTagNames<R extends Omit<ArticleRow, 'tags'>>(
  db: Kysely<DatabaseSchema>,
  rows: R[],
): Promise<(R & { tags: string[] })[]> {
  const names = await tagNamesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, tags: names.get(row.id) ?? [] }));
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** How an edit or delete restricted to the article's author went. */
export type AuthorWriteOutcome = 'done' | 'not-found' | 'not-author';

function selectWithAuthors(db: Kysely<DatabaseSchema>) {
  return db
    .withTables<AuthorColumns>()
    .selectFrom('articles')
    .innerJoin('users', 'users.id', 'articles.author_id')
    .leftJoin('author_profiles', 'author_profiles.author_id', 'articles.author_id')
    .select([
      'articles.id',
      'articles.image',
      'articles.title',
      'articles.description',
      'articles.excerpt',
      'articles.author_id as authorId',
      'users.display_name as authorName',
      'author_profiles.slug as authorSlug',
      'users.photo_url as authorPhotoUrl',
      'articles.date',
    ]);
}

/** Which articles a list holds: all of them, one author's, or those with one tag (by slug). */
export interface ListFilter {
  authorId?: string;
  tagSlug?: string;
}

/**
 * The list query: a keyset range on the (date desc, id desc) index, or with an author on the
 * (author_id, date desc, id desc) one, read in index order, so its cost does not grow with
 * the table (articlesQueryPlan.test.ts checks the plans).
 */
export function listPageQuery(
  db: Kysely<DatabaseSchema>,
  limit: number,
  after: ArticleCursor | undefined,
  filter: ListFilter = {},
) {
  if (filter.tagSlug !== undefined) return tagPageQuery(db, limit, after, filter.tagSlug);
  let query = selectWithAuthors(db);
  if (filter.authorId !== undefined) query = query.where('articles.author_id', '=', filter.authorId);
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
  return query
    .orderBy('articles.date', 'desc')
    .orderBy('articles.id', 'desc')
    .limit(limit + 1);
}

/**
 * One tag's published articles, newest first: a keyset range on article_tags' (slug, date desc,
 * article_id desc) index (the article's date is copied there), joined to the articles.
 */
function tagPageQuery(db: Kysely<DatabaseSchema>, limit: number, after: ArticleCursor | undefined, slug: string) {
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
  return query
    .orderBy('article_tags.date', 'desc')
    .orderBy('article_tags.article_id', 'desc')
    .limit(limit + 1);
}

/** A stored row as it is served: image paths under the current PUBLIC_URL. */
function served<Row extends ArticleRow>(row: Row, images: ImageOrigin): Row {
  const image = images.toServed(row.image);
  const authorPhotoUrl = row.authorPhotoUrl === null ? null : images.toServed(row.authorPhotoUrl);
  const description = images.toServed(row.description);
  const html = 'descriptionHtml' in row ? { descriptionHtml: images.toServed(row.descriptionHtml as string) } : {};
  return { ...row, image, description, authorPhotoUrl, ...html };
}

export function createArticlesRepository(
  db: Kysely<DatabaseSchema>,
  onWritten: ArticleWrittenListener[] = [],
  images: ImageOrigin = unchangedImageOrigin,
) {
  const withAuthors = () => selectWithAuthors(db);
  const tellWritten = async (article: { id: string } & ArticleFields, trx: Transaction<DatabaseSchema>) => {
    for (const listener of onWritten) await listener(article, trx);
  };

  const exists = async (id: string): Promise<boolean> => {
    const row = await db.selectFrom('articles').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  };

  return {
    /** Throws AuthorGoneError when the author's account does not exist (any more). */
    async insert(article: NewArticle): Promise<void> {
      try {
        await db.transaction().execute(async (trx) => {
          const { record, text } = articleRecord(article, images);
          await trx.insertInto('articles').values(record).execute();
          await writeTagsAndIndex(trx, article, text);
          await tellWritten(article, trx);
        });
      } catch (error) {
        // author_id is the table's only foreign key.
        if (isForeignKeyViolation(error)) throw new AuthorGoneError();
        throw error;
      }
    },

    /**
     * Many articles in one statement (seeding, imports). The caller wraps batches in a
     * transaction; 500 rows x 8 values stays under every SQLite build's parameter limit.
     * Written-listeners are not told: imported and seeded articles use no uploaded image.
     * Their tags and search index entries are written with them (one statement each).
     */
    async insertBatch(articles: NewArticle[]): Promise<void> {
      if (articles.length === 0) return;
      const records = articles.map((article) => articleRecord(article, images));
      await db
        .insertInto('articles')
        .values(records.map((item) => item.record))
        .execute();
      for (const [index, article] of articles.entries()) {
        await writeTagsAndIndex(db, article, records[index]!.text);
      }
    },

    async find(id: string): Promise<ArticleDetailRow | undefined> {
      const row = await withAuthors()
        .select('articles.description_html as descriptionHtml')
        .where('articles.id', '=', id)
        .executeTakeFirst();
      return row && served((await withTagNames(db, [row]))[0]!, images);
    },

    /** Articles by id, in the order of `ids` (unknown ids left out): search results. */
    async findMany(ids: readonly string[]): Promise<ArticleRow[]> {
      if (ids.length === 0) return [];
      const rows = await withTagNames(db, await withAuthors().where('articles.id', 'in', ids).execute());
      const byId = new Map(rows.map((row) => [row.id, served(row, images)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /**
     * Newest first, starting strictly after `after`. Asks for one row more than `limit` so
     * the caller knows whether another page exists without counting.
     */
    async listPage(limit: number, after: ArticleCursor | undefined, filter: ListFilter = {}): Promise<ArticleRow[]> {
      const rows = await withTagNames(db, await listPageQuery(db, limit, after, filter).execute());
      return rows.map((row) => served(row, images));
    },

    /**
     * The newest `limit` articles with their rendered bodies, newest first: what a feed carries
     * (all articles, or one tag's).
     */
    async newestWithBodies(limit: number, filter: ListFilter = {}): Promise<ArticleDetailRow[]> {
      const rows = await listPageQuery(db, limit, undefined, filter)
        .select('articles.description_html as descriptionHtml')
        .limit(limit)
        .execute();
      return (await withTagNames(db, rows)).map((row) => served(row, images));
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

    /** Up to `limit` ids of accounts with at least one article, in id order, after `after`: for sitemaps. */
    async authorIds(limit: number, after: string | undefined): Promise<string[]> {
      let query = db.selectFrom('articles').select('author_id').distinct();
      if (after !== undefined) query = query.where('author_id', '>', after);
      const rows = await query.orderBy('author_id').limit(limit).execute();
      return rows.map((row) => row.author_id);
    },

    /** Ids and dates only, newest first, strictly after `after`: what a sitemap lists, without the texts. */
    async listLinks(limit: number, after: ArticleCursor | undefined): Promise<{ id: string; date: number }[]> {
      return keysetAfter(db.selectFrom('articles').select(['id', 'date']), after)
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    /**
     * The key of the `count`-th article after `after` when at least one more follows it, else
     * undefined: where the next page of `count` starts, found by walking the index, not by loading rows.
     */
    async keyAfterSkipping(count: number, after: ArticleCursor | undefined): Promise<ArticleCursor | undefined> {
      const rows = await keysetAfter(db.selectFrom('articles').select(['id', 'date']), after)
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .limit(2)
        .offset(count - 1)
        .execute();
      return rows.length === 2 ? { date: rows[0]!.date, id: rows[0]!.id } : undefined;
    },

    /** Changes the article only if `authorId` wrote it, in one statement so no check can go stale. */
    async update(id: string, authorId: string, fields: ArticleFields): Promise<AuthorWriteOutcome> {
      const { columns, text } = fieldColumns(fields, images);
      const updated = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('articles')
          .set(columns)
          .where('id', '=', id)
          .where('author_id', '=', authorId)
          .returning('date')
          .executeTakeFirst();
        if (row === undefined) return false;
        // Without `tags` the article keeps its own.
        if (fields.tags !== undefined) await writeArticleTags(trx, id, Number(row.date), fields.tags);
        await indexArticle(trx, id, text);
        await tellWritten({ id, ...fields }, trx);
        return true;
      });
      if (updated) return 'done';
      return (await exists(id)) ? 'not-author' : 'not-found';
    },

    async delete(id: string, authorId: string): Promise<AuthorWriteOutcome> {
      const result = await db
        .deleteFrom('articles')
        .where('id', '=', id)
        .where('author_id', '=', authorId)
        .executeTakeFirst();
      if (result.numDeletedRows > 0n) return 'done';
      return (await exists(id)) ? 'not-author' : 'not-found';
    },
  };
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

export type ArticlesRepository = ReturnType<typeof createArticlesRepository>;

/** Removes every article of an author inside the caller's transaction (the user is being deleted). */
export async function deleteArticlesByAuthor(trx: Transaction<DatabaseSchema>, authorId: string): Promise<void> {
  await trx.deleteFrom('articles').where('author_id', '=', authorId).execute();
}
