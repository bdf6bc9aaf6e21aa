import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { ReportStatus } from './reportRules.ts';
import type { ReportRow } from './reportsTables.ts';

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** The `reports` table. */
export function createReportsStore(db: Kysely<DatabaseSchema>) {
  return {
    /** false: the reporter has an open report of the article already (the unique index says so, races included). */
    async insertIfNoneOpen(row: ReportRow): Promise<boolean> {
      const result = await db
        .insertInto('reports')
        .values(row)
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    findMany(ids: readonly string[]): Promise<ReportRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('reports').selectAll().where('id', 'in', ids).execute();
    },

    find(id: string, trx: Db = db): Promise<ReportRow | undefined> {
      return trx.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Up to `limit` reports with this status, oldest first. */
    list(status: ReportStatus, limit: number): Promise<ReportRow[]> {
      return db
        .selectFrom('reports')
        .selectAll()
        .where('status', '=', status)
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /**
     * Closes open reports with `status`: only the one with `id`, or every open one of its
     * article (`wholeArticle`). Returns the closed ones; none when that one was not open any
     * more (another editor was first).
     */
    async close(
      trx: Transaction<DatabaseSchema>,
      report: { id: string; articleId: string; commentId: string | null },
      change: { status: Exclude<ReportStatus, 'open'>; resolverUid: string; note: string | null; at: number },
      wholeArticle: boolean,
    ): Promise<ReportRow[]> {
      const set = {
        status: change.status,
        resolved_at: change.at,
        resolver_uid: change.resolverUid,
        note: change.note,
      };
      const closed = await trx
        .updateTable('reports')
        .set(set)
        .where('id', '=', report.id)
        .where('status', '=', 'open')
        .returningAll()
        .execute();
      if (closed.length === 0 || !wholeArticle) return closed;
      // A hidden comment closes its own reports; a hidden article the reports of the article itself.
      const others = await trx
        .updateTable('reports')
        .set(set)
        .where('article_id', '=', report.articleId)
        .where((eb) =>
          report.commentId === null ? eb('comment_id', 'is', null) : eb('comment_id', '=', report.commentId),
        )
        .where('status', '=', 'open')
        .returningAll()
        .execute();
      return [...closed, ...others];
    },
  };
}

export type ReportsStore = ReturnType<typeof createReportsStore>;
