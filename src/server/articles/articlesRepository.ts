import { PostgresAdapter, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { ArticleStatus } from '../../shared/articleSchema.ts';
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
  status: ArticleStatus;
  /** The last hide's reason and time (epoch ms); shown only while hidden. */
  moderationReason: string | null;
  moderatedAt: number | null;
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
  /** false: no newsletter for this write's first publication (never stored). */
  newsletter?: boolean | undefined;
}

/** The author's account no longer exists (deleted after the caller's token was checked). */
export class AuthorGoneError extends Error {
  override name = 'AuthorGoneError';
}

/** An article as written: its fields plus what the server decides (id, author, date, status). */
export type NewArticle = ArticleFields & { id: string; authorId: string; date: number; status?: ArticleStatus };

/** What a change of an existing article is decided on: the stored article before it. */
export interface CurrentArticle {
  id: string;
  authorId: string;
  title: string;
  status: ArticleStatus;
  date: number;
  everPublished: boolean;
}

/** A change the caller decided on, given the current article; or a refusal, returned as is. */
export type ChangePlan = {
  status: ArticleStatus;
  /** Set on hide; left as stored when absent. */
  moderation?: { reason: string; at: number };
};

/** Runs inside the change's transaction, after the write (the audit log's row). */
export type InTransaction = (trx: Transaction<DatabaseSchema>, before: CurrentArticle) => Promise<void>;

/**
 * Told of every article written through the API (created or changed), inside the writing
 * transaction: a failing listener undoes the write. `trx` is for the listener's own tables.
 */
/** Told inside the transaction of an article's first publication (DESIGN.md §9.3's sends). */
export type FirstPublishedListener = (
  article: { id: string; title: string; newsletter: boolean },
  trx: Transaction<DatabaseSchema>,
) => Promise<void>;

/** An article's status before and after a write; null where it did not exist, or no longer does. */
export type ArticleChangedListener = (
  change: { id: string; before: ArticleStatus | null; after: ArticleStatus | null; edited: boolean },
  trx: Transaction<DatabaseSchema>,
) => Promise<void>;

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
  const status = article.status ?? 'published';
  return {
    record: {
      id: article.id,
      ...columns,
      author_id: article.authorId,
      date: article.date,
      status,
      ever_published: status === 'published' ? 1 : 0,
    },
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
      'articles.status',
      'articles.moderation_reason as moderationReason',
      'articles.moderated_at as moderatedAt',
    ]);
}

/**
 * Which articles a list holds: all of them, one author's, or those with one tag (by slug);
 * of one status (published unless said otherwise: what everyone may see), or of every status
 * (`all`: one author's list for that author and editors).
 */
export interface ListFilter {
  authorId?: string;
  tagSlug?: string;
  status?: ArticleStatus | 'all';
}

/**
 * The list query: a keyset range on the (status, date desc, id desc) index, or with an author on
 * the (author_id, status, date desc, id desc) one (every status: (author_id, date desc, id desc)),
 * read in index order, so its cost does not grow with
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
  const status = filter.status ?? 'published';
  if (status !== 'all') query = query.where('articles.status', '=', status);
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
  onFirstPublished: FirstPublishedListener[] = [],
  onChanged: ArticleChangedListener[] = [],
) {
  const tellChanged: ArticleChangedListener = async (change, trx) => {
    for (const listener of onChanged) await listener(change, trx);
  };
  const tellFirstPublished = async (
    article: { id: string; title: string; newsletter?: boolean | undefined },
    trx: Transaction<DatabaseSchema>,
  ) => {
    const told = { id: article.id, title: article.title, newsletter: article.newsletter !== false };
    for (const listener of onFirstPublished) await listener(told, trx);
  };
  const withAuthors = () => selectWithAuthors(db);
  const tellWritten = async (article: { id: string } & ArticleFields, trx: Transaction<DatabaseSchema>) => {
    for (const listener of onWritten) await listener(article, trx);
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
          if (record.status === 'published') await tellFirstPublished(article, trx);
          await tellChanged({ id: article.id, before: null, after: record.status, edited: true }, trx);
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

    /** Published articles by id, in the order of `ids` (others left out): search results. */
    async findMany(ids: readonly string[]): Promise<ArticleRow[]> {
      if (ids.length === 0) return [];
      // The index holds published articles only; checked again in case one left since the match.
      const rows = await withTagNames(
        db,
        await withAuthors().where('articles.id', 'in', ids).where('articles.status', '=', 'published').execute(),
      );
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

    /**
     * Changes an article as `decide` says given the stored one (its fields too when `fields` is
     * given), all in one transaction with the row locked, so no check can go stale. The first
     * publication sets `date` to `now`, once (DESIGN.md §8.2). A refusal is returned as is.
     */
    async change<Refusal extends string>(
      id: string,
      decide: (current: CurrentArticle) => ChangePlan | Refusal,
      options: { fields?: ArticleFields | undefined; now: number; inTransaction?: InTransaction | undefined },
    ): Promise<{ before: CurrentArticle } | Refusal | 'not-found'> {
      return db.transaction().execute(async (trx) => {
        const before = await lockCurrent(trx, id);
        if (!before) return 'not-found' as const;
        const plan = decide(before);
        if (typeof plan === 'string') return plan;
        const firstPublication = plan.status === 'published' && !before.everPublished;
        const date = firstPublication ? options.now : before.date;
        const rendered = options.fields ? fieldColumns(options.fields, images) : undefined;
        await trx
          .updateTable('articles')
          .set({
            ...rendered?.columns,
            status: plan.status,
            ...(firstPublication ? { date, ever_published: 1 } : {}),
            ...(plan.moderation ? { moderation_reason: plan.moderation.reason, moderated_at: plan.moderation.at } : {}),
          })
          .where('id', '=', id)
          .execute();
        // Tag lists walk the article's date copied beside each tag.
        if (options.fields?.tags !== undefined) await writeArticleTags(trx, id, date, options.fields.tags);
        else if (firstPublication)
          await trx.updateTable('article_tags').set({ date }).where('article_id', '=', id).execute();
        // The search index holds published articles only: any change rewrites the entry.
        const text = rendered?.text ?? (await storedText(trx, id));
        await indexArticle(trx, id, text);
        if (options.fields) await tellWritten({ id, ...options.fields }, trx);
        if (firstPublication) {
          const title = options.fields?.title ?? before.title;
          await tellFirstPublished({ id, title, newsletter: options.fields?.newsletter }, trx);
        }
        await tellChanged({ id, before: before.status, after: plan.status, edited: options.fields !== undefined }, trx);
        await options.inTransaction?.(trx, before);
        return { before };
      });
    },

    /** Deletes the article when `decide` allows it given the stored one, in one transaction. */
    async remove<Refusal extends string>(
      id: string,
      decide: (current: CurrentArticle) => 'delete' | Refusal,
      inTransaction?: InTransaction,
    ): Promise<{ before: CurrentArticle } | Refusal | 'not-found'> {
      return db.transaction().execute(async (trx) => {
        const before = await lockCurrent(trx, id);
        if (!before) return 'not-found' as const;
        const plan = decide(before);
        if (plan !== 'delete') return plan;
        await trx.deleteFrom('articles').where('id', '=', id).execute();
        await tellChanged({ id, before: before.status, after: null, edited: false }, trx);
        await inTransaction?.(trx, before);
        return { before };
      });
    },
  };
}

/** The stored article a change is decided on, locked until the transaction ends (PostgreSQL; SQLite writes one at a time). */
async function lockCurrent(trx: Transaction<DatabaseSchema>, id: string): Promise<CurrentArticle | undefined> {
  let query = trx
    .selectFrom('articles')
    .select(['id', 'author_id', 'title', 'status', 'date', 'ever_published'])
    .where('id', '=', id);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    authorId: row.author_id,
    title: row.title,
    status: row.status,
    date: Number(row.date),
    everPublished: Number(row.ever_published) === 1,
  };
}

/** The article's plain text, from its stored Markdown (what the search index holds). */
async function storedText(trx: Transaction<DatabaseSchema>, id: string): Promise<string> {
  const row = await trx.selectFrom('articles').select('description').where('id', '=', id).executeTakeFirstOrThrow();
  return renderMarkdown(row.description).text;
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

export type ArticlesRepository = ReturnType<typeof createArticlesRepository>;

/** Removes every article of an author inside the caller's transaction (the user is being deleted). */
export async function deleteArticlesByAuthor(trx: Transaction<DatabaseSchema>, authorId: string): Promise<void> {
  await trx.deleteFrom('articles').where('author_id', '=', authorId).execute();
}
