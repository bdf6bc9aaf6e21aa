import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { NEWSLETTER_LIST } from './subscribers.ts';

export interface SendJson {
  id: string;
  articleId: string;
  title: string;
  createdAt: string;
  total: number;
  sent: number;
  failed: number;
  /** Subscribers who left (or bounced on another send) before their turn: no mail. */
  skipped: number;
  status: 'queued' | 'sending' | 'done';
}

/** One claimed message: a delivery row this process holds until `leaseUntil`. */
export interface ClaimedDelivery {
  sendId: string;
  subscriberId: string;
  attempts: number;
}

/**
 * The outbox (decision 0650): a send is made with its deliveries in the transaction of the
 * article's first publication, so it is there exactly when the article is. A claim moves due
 * rows to `sending` with a lease in `next_attempt_at`; a process killed mid-send leaves rows
 * whose lease ends and any process takes them again: at most the in-flight messages repeat.
 */
export function createSends(deps: { database: Database; now: () => number }) {
  const { database, now } = deps;
  const { db } = database;

  return {
    /** In the first publication's transaction: one delivery per subscriber who wants the newsletter. */
    async create(article: { id: string; title: string }, trx: Transaction<DatabaseSchema>): Promise<string> {
      const id = randomBytes(16).toString('base64url');
      const at = now();
      const inserted = await trx
        .insertInto('newsletter_deliveries')
        .columns(['send_id', 'subscriber_id', 'status', 'attempts', 'next_attempt_at'])
        .expression(
          trx
            .selectFrom('newsletter_subscribers as s')
            .select([
              sql<string>`cast(${id} as text)`.as('send_id'),
              's.id',
              sql<string>`'queued'`.as('status'),
              sql<number>`0`.as('attempts'),
              sql<number>`cast(${at} as bigint)`.as('next_attempt_at'),
            ])
            .where('s.status', '=', 'confirmed')
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('mail_opt_outs as o')
                    .select('o.list')
                    .where('o.list', '=', NEWSLETTER_LIST)
                    .whereRef('o.recipient', '=', 's.id'),
                ),
              ),
            ),
        )
        .executeTakeFirst();
      const total = Number(inserted.numInsertedOrUpdatedRows ?? 0);
      await trx
        .insertInto('newsletter_sends')
        .values({ id, article_id: article.id, title: article.title, created_at: at, total })
        .onConflict((conflict) => conflict.column('article_id').doNothing())
        .execute();
      return id;
    },

    /** Claims up to `limit` due messages for `leaseMs`; each row goes to one claimer only. */
    async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
      const at = now();
      const due = (executor: Kysely<DatabaseSchema>) =>
        executor
          .selectFrom('newsletter_deliveries')
          .where('status', 'in', ['queued', 'sending'])
          .where('next_attempt_at', '<=', at)
          .orderBy('next_attempt_at')
          .limit(limit);
      if (database.dialect === 'postgres') {
        // SKIP LOCKED: concurrent claimers (other processes, other lanes) pass over each
        // other's rows instead of waiting for them or taking them twice.
        const rows = await sql<{ send_id: string; subscriber_id: string; attempts: number }>`
          update newsletter_deliveries d
          set status = 'sending', attempts = d.attempts + 1, next_attempt_at = ${at + leaseMs}
          from (${due(db).select(['send_id', 'subscriber_id']).forUpdate().skipLocked()}) c
          where d.send_id = c.send_id and d.subscriber_id = c.subscriber_id
          returning d.send_id, d.subscriber_id, d.attempts`.execute(db);
        return rows.rows.map(toClaimed);
      }
      // SQLite has one writer at a time: the statement's select and update are one step.
      const rows = await sql<{ send_id: string; subscriber_id: string; attempts: number }>`
        update newsletter_deliveries
        set status = 'sending', attempts = attempts + 1, next_attempt_at = ${at + leaseMs}
        where rowid in (${due(db).select(sql`rowid`.as('rowid'))})
        returning send_id, subscriber_id, attempts`.execute(db);
      return rows.rows.map(toClaimed);
    },

    /** Keeps the claim of rows still to be sent (a slow batch). */
    async extend(claims: readonly ClaimedDelivery[], leaseMs: number): Promise<void> {
      for (const claim of claims) {
        await db
          .updateTable('newsletter_deliveries')
          .set({ next_attempt_at: now() + leaseMs })
          .where('send_id', '=', claim.sendId)
          .where('subscriber_id', '=', claim.subscriberId)
          .where('status', '=', 'sending')
          .execute();
      }
    },

    async finish(
      claim: ClaimedDelivery,
      outcome:
        | { status: 'sent' | 'failed' | 'skipped'; error?: string }
        | { status: 'queued'; retryAt: number; error: string },
    ): Promise<void> {
      await db
        .updateTable('newsletter_deliveries')
        .set(
          outcome.status === 'queued'
            ? { status: 'queued', next_attempt_at: outcome.retryAt, last_error: outcome.error }
            : { status: outcome.status, finished_at: now(), last_error: outcome.error ?? null },
        )
        .where('send_id', '=', claim.sendId)
        .where('subscriber_id', '=', claim.subscriberId)
        .execute();
    },

    async articleOf(sendId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('newsletter_sends')
        .select('article_id')
        .where('id', '=', sendId)
        .executeTakeFirst();
      return row?.article_id;
    },

    /** The newest sends with their progress. */
    async list(limit = 50): Promise<SendJson[]> {
      const sends = await db
        .selectFrom('newsletter_sends')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      if (sends.length === 0) return [];
      const counts = await db
        .selectFrom('newsletter_deliveries')
        .select(['send_id', 'status', (eb) => eb.fn.countAll<string | number>().as('count')])
        .where(
          'send_id',
          'in',
          sends.map((send) => send.id),
        )
        .groupBy(['send_id', 'status'])
        .execute();
      return sends.map((send) => {
        const of = (status: string) =>
          Number(counts.find((row) => row.send_id === send.id && row.status === status)?.count ?? 0);
        const [sent, failed, skipped, queued, sending] = ['sent', 'failed', 'skipped', 'queued', 'sending'].map(of) as [
          number,
          number,
          number,
          number,
          number,
        ];
        const status = queued + sending === 0 ? 'done' : sent + failed + skipped + sending === 0 ? 'queued' : 'sending';
        return {
          id: send.id,
          articleId: send.article_id,
          title: send.title,
          createdAt: new Date(Number(send.created_at)).toISOString(),
          total: send.total,
          sent,
          failed,
          skipped,
          status,
        };
      });
    },
  };
}

export type Sends = ReturnType<typeof createSends>;

function toClaimed(row: { send_id: string; subscriber_id: string; attempts: number }): ClaimedDelivery {
  return { sendId: row.send_id, subscriberId: row.subscriber_id, attempts: Number(row.attempts) };
}
