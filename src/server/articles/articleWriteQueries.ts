import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import { renderMarkdown } from '../../shared/markdown/renderMarkdown.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { writeArticleTags } from './articleTags.ts';
import { indexArticle } from './search/searchIndex.ts';
import { unchangedImageOrigin, type ImageOrigin } from './imageOrigin.ts';
import type { ArticleStatus } from '../../shared/articleSchema.ts';
import {
  AuthorGoneError,
  type ArticleFields,
  type ArticleWrittenListener,
  type ChangePlan,
  type CurrentArticle,
  type ArticleChangedListener,
  type FirstPublishedListener,
  type InTransaction,
  type NewArticle,
} from './articleRows.ts';

/**
 * The stored columns of an article's fields: the Markdown and what it renders to (decision 0040),
 * with this server's image URLs made origin-free (decision 0300). The renderer keeps only
 * absolute URLs, so it reads the Markdown as written and its HTML is made origin-free after.
 */
function fieldColumns(fields: ArticleFields, images: ImageOrigin) {
  const { html, excerpt, text } = renderMarkdown(fields.description, { ownImageOrigin: images.origin });
  // The author's own excerpt is shown instead of the made one (decision 0850); one equal to the
  // made one is not the author's (a restored export carries every article's excerpt).
  const custom = fields.excerpt === undefined ? undefined : fields.excerpt === excerpt ? null : fields.excerpt || null;
  return {
    columns: {
      image: images.toStored(fields.image),
      title: fields.title,
      description: images.toStored(fields.description),
      description_html: images.toStored(html),
      excerpt: custom ?? excerpt,
      ...(custom === undefined ? {} : { custom_excerpt: custom }),
    },
    /** The made excerpt: an update that leaves the custom one shows the custom one still. */
    madeExcerpt: excerpt,
    /** The plain text, for the search index. */
    text,
  };
}

/** The stored status and time of an API status: `scheduled` is a draft with a time (decision 0851). */
function storedStatus(status: ArticleStatus, publishAt: number | undefined) {
  return status === 'scheduled'
    ? { status: 'draft' as const, publish_at: publishAt ?? null }
    : { status, publish_at: null };
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
      ...storedStatus(status, article.publishAt),
      publish_newsletter: article.newsletter === false ? 0 : 1,
      ever_published: status === 'published' ? 1 : 0,
    },
    status,
    text,
  };
}

/** Tags, then the search index entry (which reads the tags): in the article's transaction. */
async function writeTagsAndIndex(trx: Kysely<DatabaseSchema>, article: NewArticle, text: string) {
  await writeArticleTags(trx, article.id, article.date, article.tags ?? []);
  await indexArticle(trx, article.id, text);
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** The stored article a change is decided on, locked until the transaction ends (PostgreSQL; SQLite writes one at a time). */
async function lockCurrent(trx: Transaction<DatabaseSchema>, id: string): Promise<CurrentArticle | undefined> {
  let query = trx
    .selectFrom('articles')
    .select(['id', 'author_id', 'title', 'status', 'date', 'ever_published', 'publish_at', 'publish_newsletter'])
    .where('id', '=', id);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const publishAt = row.publish_at === null ? null : Number(row.publish_at);
  return {
    id: row.id,
    authorId: row.author_id,
    title: row.title,
    status: publishAt === null ? row.status : 'scheduled',
    date: Number(row.date),
    everPublished: Number(row.ever_published) === 1,
    publishAt,
    publishNewsletter: Number(row.publish_newsletter) === 1,
  };
}

/** The article's plain text, from its stored Markdown (what the search index holds). */
async function storedText(trx: Transaction<DatabaseSchema>, id: string): Promise<string> {
  const row = await trx.selectFrom('articles').select('description').where('id', '=', id).executeTakeFirstOrThrow();
  return renderMarkdown(row.description).text;
}

/** What a change writes besides its status: the fields (a full edit), the time, the audit row. */
export interface ChangeOptions {
  fields?: ArticleFields | undefined;
  now: number;
  inTransaction?: InTransaction | undefined;
}

/** The articles' writes: each in one transaction, telling the listeners inside it. */
export function createArticleWriteQueries(
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
  const tellWritten = async (article: { id: string } & ArticleFields, trx: Transaction<DatabaseSchema>) => {
    for (const listener of onWritten) await listener(article, trx);
  };

  /**
   * Changes an article as `decide` says given the stored one (its fields too when `fields` is
   * given), in `trx` with the row locked, so no check can go stale. The first publication sets
   * `date` to `now` (or the plan's `publishedAt`), once (DESIGN.md §8.2). A refusal is returned as is.
   */
  async function changeIn<Refusal extends string>(
    trx: Transaction<DatabaseSchema>,
    id: string,
    decide: (current: CurrentArticle) => ChangePlan | Refusal,
    options: ChangeOptions,
  ): Promise<{ before: CurrentArticle } | Refusal | 'not-found'> {
    const before = await lockCurrent(trx, id);
    if (!before) return 'not-found' as const;
    const plan = decide(before);
    if (typeof plan === 'string') return plan;
    const firstPublication = plan.status === 'published' && !before.everPublished;
    const date = firstPublication ? (plan.publishedAt ?? options.now) : before.date;
    const rendered = options.fields ? fieldColumns(options.fields, images) : undefined;
    // Fields without an excerpt of their own keep the stored custom one, over the new made one.
    const keptExcerpt =
      rendered && options.fields?.excerpt === undefined
        ? { excerpt: sql<string>`coalesce(custom_excerpt, ${rendered.madeExcerpt})` }
        : {};
    await trx
      .updateTable('articles')
      .set({
        ...rendered?.columns,
        ...keptExcerpt,
        ...storedStatus(plan.status, plan.publishAt),
        ...(plan.status === 'scheduled' && options.fields
          ? { publish_newsletter: options.fields.newsletter === false ? 0 : 1 }
          : {}),
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
      await tellFirstPublished({ id, title, newsletter: plan.newsletter ?? options.fields?.newsletter }, trx);
    }
    await tellChanged({ id, before: before.status, after: plan.status, edited: options.fields !== undefined }, trx);
    await options.inTransaction?.(trx, before);
    return { before };
  }

  return {
    /** Throws AuthorGoneError when the author's account does not exist (any more). */
    async insert(article: NewArticle): Promise<void> {
      try {
        await db.transaction().execute(async (trx) => {
          const { record, status, text } = articleRecord(article, images);
          await trx.insertInto('articles').values(record).execute();
          await writeTagsAndIndex(trx, article, text);
          await tellWritten(article, trx);
          if (status === 'published') await tellFirstPublished(article, trx);
          await tellChanged({ id: article.id, before: null, after: status, edited: true }, trx);
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

    /**
     * Changes an article as `decide` says given the stored one (its fields too when `fields` is
     * given), all in one transaction with the row locked, so no check can go stale. The first
     * publication sets `date` to `now`, once (DESIGN.md §8.2). A refusal is returned as is.
     */
    async change<Refusal extends string>(
      id: string,
      decide: (current: CurrentArticle) => ChangePlan | Refusal,
      options: ChangeOptions,
    ): Promise<{ before: CurrentArticle } | Refusal | 'not-found'> {
      return db.transaction().execute((trx) => changeIn(trx, id, decide, options));
    },

    /**
     * Publishes up to `limit` scheduled articles whose time has come (`publishAt <= now`), each
     * with `date = publishAt` and the first publication's effects, in one transaction. On
     * PostgreSQL the due rows are claimed `FOR UPDATE SKIP LOCKED`: another process's poll passes
     * over them, and a process that dies mid-way leaves nothing half-done (its transaction rolls
     * back, and the next poll anywhere publishes them). SQLite has one writer at a time; each
     * article is decided again on its locked row, so a second poll finds it published. Returns
     * how many were published.
     */
    async publishDue(now: number, limit: number): Promise<number> {
      return db.transaction().execute(async (trx) => {
        let query = trx
          .selectFrom('articles')
          .select('id')
          .where('publish_at', 'is not', null)
          .where('publish_at', '<=', now)
          .orderBy('publish_at')
          .limit(limit);
        if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate().skipLocked();
        const due = await query.execute();
        let published = 0;
        for (const { id } of due) {
          const outcome = await changeIn(
            trx,
            id,
            (current) =>
              current.status === 'scheduled' && current.publishAt !== null && current.publishAt <= now
                ? { status: 'published', publishedAt: current.publishAt, newsletter: current.publishNewsletter }
                : ('not-due' as const),
            { now },
          );
          if (typeof outcome !== 'string') published += 1;
        }
        return published;
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

/** Removes every article of an author inside the caller's transaction (the user is being deleted). */
export async function deleteArticlesByAuthor(trx: Transaction<DatabaseSchema>, authorId: string): Promise<void> {
  await trx.deleteFrom('articles').where('author_id', '=', authorId).execute();
}
