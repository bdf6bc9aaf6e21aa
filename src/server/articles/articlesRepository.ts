import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { ArticleCursor } from './articleCursor.ts';

/**
 * All SQL of the articles feature. The one read outside its own table: the author's
 * current display name, from the two columns of identity's users table declared here.
 */
type AuthorColumns = {
  users: { id: string; display_name: string | null };
};

export interface ArticleRow {
  id: string;
  image: string;
  title: string;
  description: string;
  authorId: string;
  authorName: string | null;
  /** Epoch milliseconds. */
  date: number;
}

export interface ArticleFields {
  image: string;
  title: string;
  description: string;
}

/** The author's account no longer exists (deleted after the caller's token was checked). */
export class AuthorGoneError extends Error {
  override name = 'AuthorGoneError';
}

/** An article as written: its fields plus what the server decides (id, author, date). */
export type NewArticle = ArticleFields & { id: string; authorId: string; date: number };

function articleRecord(article: NewArticle) {
  return {
    id: article.id,
    image: article.image,
    title: article.title,
    description: article.description,
    author_id: article.authorId,
    date: article.date,
  };
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
    .select([
      'articles.id',
      'articles.image',
      'articles.title',
      'articles.description',
      'articles.author_id as authorId',
      'users.display_name as authorName',
      'articles.date',
    ]);
}

/**
 * The list query: a keyset range on the (date desc, id desc) index, read in index order,
 * so its cost does not grow with the table (articlesQueryPlan.test.ts checks the plans).
 */
export function listPageQuery(db: Kysely<DatabaseSchema>, limit: number, after: ArticleCursor | undefined) {
  let query = selectWithAuthors(db);
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

export function createArticlesRepository(db: Kysely<DatabaseSchema>) {
  const withAuthors = () => selectWithAuthors(db);

  const exists = async (id: string): Promise<boolean> => {
    const row = await db.selectFrom('articles').select('id').where('id', '=', id).executeTakeFirst();
    return row !== undefined;
  };

  return {
    /** Throws AuthorGoneError when the author's account does not exist (any more). */
    async insert(article: NewArticle): Promise<void> {
      try {
        await db.insertInto('articles').values(articleRecord(article)).execute();
      } catch (error) {
        // author_id is the table's only foreign key.
        if (isForeignKeyViolation(error)) throw new AuthorGoneError();
        throw error;
      }
    },

    /**
     * Many articles in one statement (seeding, imports). The caller wraps batches in a
     * transaction; 500 rows x 6 values stays under every SQLite build's parameter limit.
     */
    async insertBatch(articles: NewArticle[]): Promise<void> {
      if (articles.length === 0) return;
      await db.insertInto('articles').values(articles.map(articleRecord)).execute();
    },

    async find(id: string): Promise<ArticleRow | undefined> {
      return withAuthors().where('articles.id', '=', id).executeTakeFirst();
    },

    /**
     * Newest first, starting strictly after `after`. Asks for one row more than `limit` so
     * the caller knows whether another page exists without counting.
     */
    async listPage(limit: number, after: ArticleCursor | undefined): Promise<ArticleRow[]> {
      return listPageQuery(db, limit, after).execute();
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
      const result = await db
        .updateTable('articles')
        .set({ image: fields.image, title: fields.title, description: fields.description })
        .where('id', '=', id)
        .where('author_id', '=', authorId)
        .executeTakeFirst();
      if (result.numUpdatedRows > 0n) return 'done';
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
