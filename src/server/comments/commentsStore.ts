import { sql, type Kysely, type Transaction } from 'kysely';
import type { CommentStatus } from '../../shared/comments.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { KeysetPosition } from '../http/keysetCursor.ts';
import type { CommentRow } from './commentsTables.ts';

/**
 * All SQL of the comments feature. The reads outside its own table: the local author's current
 * display name and picture (identity's users columns, declared here) and author page slug (the
 * authors feature's author_profiles), as the articles feature reads them for bylines.
 */
type AuthorColumns = {
  users: { id: string; display_name: string | null; photo_url: string | null };
  author_profiles: { author_id: string; slug: string };
};

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

export type CommentWithAuthor = CommentRow & {
  authorName: string | null;
  authorPhotoUrl: string | null;
  authorSlug: string | null;
};

/**
 * Which comments a reader sees (DESIGN.md §9.2): `public` published ones; `own` also the
 * viewer's pending ones; `staff` (editors, the article's author) also pending and hidden ones.
 * A deleted comment shows (as "This comment was deleted.") while a reply it has is seen.
 */
export type CommentView = { kind: 'public' } | { kind: 'own'; uid: string } | { kind: 'staff' };

export function createCommentsStore(db: Kysely<DatabaseSchema>) {
  const withAuthors = (trx: Db = db) =>
    trx
      .withTables<AuthorColumns>()
      .selectFrom('comments')
      .leftJoin('users', 'users.id', 'comments.author_uid')
      .leftJoin('author_profiles', 'author_profiles.author_id', 'comments.author_uid')
      .selectAll('comments')
      .select([
        'users.display_name as authorName',
        'users.photo_url as authorPhotoUrl',
        'author_profiles.slug as authorSlug',
      ]);

  /** SQL: is the comment aliased `alias` seen in `view` (tombstones aside)? */
  const seen = (view: CommentView, alias: string) => {
    const status = sql.ref(`${alias}.status`);
    const author = sql.ref(`${alias}.author_uid`);
    switch (view.kind) {
      case 'public':
        return sql<boolean>`${status} = 'published'`;
      case 'own':
        return sql<boolean>`(${status} = 'published' or (${status} = 'pending' and ${author} = ${view.uid}))`;
      case 'staff':
        return sql<boolean>`${status} <> 'deleted'`;
    }
  };

  return {
    /** These comments' bodies by id, the ones still there and not deleted (kept for replies as ''). */
    async bodiesOf(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('comments')
        .select(['id', 'body'])
        .where('id', 'in', ids)
        .where('status', '<>', 'deleted')
        .execute();
      return new Map(rows.map((row) => [row.id, row.body]));
    },

    find(id: string, trx: Db = db): Promise<CommentRow | undefined> {
      return trx.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findWithAuthor(id: string): Promise<CommentWithAuthor | undefined> {
      return withAuthors().where('comments.id', '=', id).executeTakeFirst();
    },
    async insert(row: CommentRow): Promise<void> {
      await db.insertInto('comments').values(row).execute();
    },
    /**
     * Up to `limit` top-level comments of the article seen in `view`, oldest first, after
     * `after`; deleted ones only while they have a reply seen in `view`.
     */
    topLevel(articleId: string, view: CommentView, limit: number, after: KeysetPosition | undefined) {
      let query = withAuthors()
        .where('comments.article_id', '=', articleId)
        .where('comments.parent_id', 'is', null)
        .where((eb) =>
          eb.or([
            seen(view, 'comments'),
            eb.and([
              eb('comments.status', '=', 'deleted'),
              eb.exists(
                eb
                  .selectFrom('comments as r')
                  .select('r.id')
                  .whereRef('r.parent_id', '=', 'comments.id')
                  .where(seen(view, 'r')),
              ),
            ]),
          ]),
        );
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('comments.created_at', '>', after.at),
            eb.and([eb('comments.created_at', '=', after.at), eb('comments.id', '>', after.id)]),
          ]),
        );
      }
      return query.orderBy('comments.created_at').orderBy('comments.id').limit(limit).execute();
    },
    /** The replies seen in `view` of these top-level comments, oldest first. */
    replies(parentIds: readonly string[], view: CommentView): Promise<CommentWithAuthor[]> {
      if (parentIds.length === 0) return Promise.resolve([]);
      return withAuthors()
        .where('comments.parent_id', 'in', parentIds)
        .where(seen(view, 'comments'))
        .orderBy('comments.created_at')
        .orderBy('comments.id')
        .execute();
    },
    /** Published comments of the article, replies included. */
    async countPublished(articleId: string): Promise<number> {
      const row = await db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('article_id', '=', articleId)
        .where('status', '=', 'published')
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** Published comments of each of these articles; 0s are left out. */
    async countPublishedOf(articleIds: readonly string[]): Promise<Map<string, number>> {
      if (articleIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('comments')
        .select(['article_id', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where('article_id', 'in', articleIds)
        .where('status', '=', 'published')
        .groupBy('article_id')
        .execute();
      return new Map(rows.map((row) => [row.article_id, Number(row.n)]));
    },
    /** The pending queue: oldest first. */
    pending(limit: number): Promise<CommentWithAuthor[]> {
      return withAuthors()
        .where('comments.status', '=', 'pending')
        .orderBy('comments.created_at')
        .orderBy('comments.id')
        .limit(limit)
        .execute();
    },
    async update(
      id: string,
      change: Partial<Pick<CommentRow, 'body' | 'body_html' | 'edited_at' | 'status' | 'hidden_reason'>>,
      trx: Db = db,
      onlyIfStatus?: readonly CommentStatus[],
    ): Promise<boolean> {
      let query = trx.updateTable('comments').set(change).where('id', '=', id);
      if (onlyIfStatus) query = query.where('status', 'in', onlyIfStatus);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /**
     * Deletes a comment: kept as a tombstone (no author, no body) while it has replies, else
     * removed; a tombstone left without replies goes too.
     */
    async remove(trx: Transaction<DatabaseSchema>, comment: CommentRow): Promise<void> {
      const reply = await trx
        .selectFrom('comments')
        .select('id')
        .where('parent_id', '=', comment.id)
        .executeTakeFirst();
      if (reply) {
        await trx
          .updateTable('comments')
          .set({
            status: 'deleted',
            author_uid: null,
            remote_author_id: null,
            remote_author_name: null,
            remote_author_url: null,
            remote_author_photo_url: null,
            body: '',
            body_html: '',
            hidden_reason: null,
          })
          .where('id', '=', comment.id)
          .execute();
        return;
      }
      await trx.deleteFrom('comments').where('id', '=', comment.id).execute();
      if (comment.parent_id !== null) {
        await trx
          .deleteFrom('comments')
          .where('id', '=', comment.parent_id)
          .where('status', '=', 'deleted')
          .where((eb) =>
            eb.not(
              eb.exists(eb.selectFrom('comments as r').select('r.id').whereRef('r.parent_id', '=', 'comments.id')),
            ),
          )
          .execute();
      }
    },
    /** Every comment of an account, in the transaction that deletes it (tombstones where replied to). */
    async removeByAuthor(trx: Transaction<DatabaseSchema>, uid: string): Promise<void> {
      // Replies first, so that a top-level comment whose only replies were theirs goes entirely.
      const rows = await trx
        .selectFrom('comments')
        .selectAll()
        .where('author_uid', '=', uid)
        .orderBy(sql`case when parent_id is null then 1 else 0 end`)
        .execute();
      for (const row of rows) await this.remove(trx, row);
    },
  };
}

export type CommentsStore = ReturnType<typeof createCommentsStore>;
