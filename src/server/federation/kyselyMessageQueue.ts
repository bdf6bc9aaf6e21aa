import { randomUUID } from 'node:crypto';
import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';

export interface QueueLog {
  warn(object: object, message: string): void;
}

export interface KyselyMessageQueue extends MessageQueue {
  /** Adds a message inside the caller's transaction: it exists exactly when what it is about does. */
  enqueueIn(trx: Kysely<DatabaseSchema>, message: unknown): Promise<void>;
  /** Wakes this process's listener now (after a commit) instead of at its next poll. */
  kick(): void;
}

export interface QueueOptions {
  /** How long a claim holds a message before another process may take it (the worker died). */
  leaseMs?: number;
  /** Messages handled at once by one process. */
  concurrency?: number;
  /** How often an idle listener looks for due messages (other processes' enqueues). */
  pollMs?: number;
  log?: QueueLog;
}

const MAX_CLAIMS = 10;

/**
 * Fedify's message queue in our database, either engine (decision 0700), after the newsletter
 * outbox (decision 0650): a row per message, due at `run_at`; a claim moves `run_at` to the end
 * of a lease (SKIP LOCKED on PostgreSQL, so processes sharing the database pass over each
 * other's claims), the row is deleted once handled. A process killed mid-message leaves the row
 * to be claimed again when the lease ends: at most the messages in flight repeat. Fedify does
 * its own retries (it enqueues a message again with a delay); a handler that throws anyway is
 * tried again a minute later, at most MAX_CLAIMS times.
 */
export function kyselyMessageQueue(database: Database, options: QueueOptions = {}): KyselyMessageQueue {
  const { db } = database;
  const leaseMs = options.leaseMs ?? 60_000;
  const concurrency = options.concurrency ?? 16;
  const pollMs = options.pollMs ?? 500;
  const wakers = new Set<() => void>();
  const kick = () => {
    for (const wake of wakers) wake();
  };
  const row = (message: unknown, delayMs: number) => {
    const at = Date.now();
    return { id: randomUUID(), message: JSON.stringify(message), run_at: at + delayMs, claims: 0, created_at: at };
  };
  const delayOf = (enqueueOptions?: MessageQueueEnqueueOptions) =>
    enqueueOptions?.delay ? Math.max(0, Math.ceil(enqueueOptions.delay.total({ unit: 'millisecond' }))) : 0;

  const claim = async (limit: number): Promise<{ id: string; message: string; claims: number }[]> => {
    const at = Date.now();
    const due = db.selectFrom('federation_queue').select('id').where('run_at', '<=', at).orderBy('run_at').limit(limit);
    if (database.dialect === 'postgres') {
      const rows = await sql<{ id: string; message: string; claims: number }>`
        update federation_queue q set run_at = ${at + leaseMs}, claims = q.claims + 1
        from (${due.forUpdate().skipLocked()}) c where q.id = c.id
        returning q.id, q.message, q.claims`.execute(db);
      return rows.rows;
    }
    // SQLite has one writer at a time: the statement's select and update are one step.
    const rows = await sql<{ id: string; message: string; claims: number }>`
      update federation_queue set run_at = ${at + leaseMs}, claims = claims + 1
      where id in (${due}) returning id, message, claims`.execute(db);
    return rows.rows;
  };

  return {
    async enqueue(message, enqueueOptions) {
      await db
        .insertInto('federation_queue')
        .values(row(message, delayOf(enqueueOptions)))
        .execute();
      kick();
    },
    async enqueueMany(messages, enqueueOptions) {
      if (messages.length === 0) return;
      const delay = delayOf(enqueueOptions);
      await db
        .insertInto('federation_queue')
        .values(messages.map((message) => row(message, delay)))
        .execute();
      kick();
    },
    async enqueueIn(trx, message) {
      await trx.insertInto('federation_queue').values(row(message, 0)).execute();
    },
    kick,
    async listen(handler: (message: unknown) => Promise<void> | void, listenOptions?: MessageQueueListenOptions) {
      const signal = listenOptions?.signal;
      const inFlight = new Set<Promise<void>>();
      let wake: () => void = () => {};
      const waker = () => wake();
      wakers.add(waker);
      const handle = async (claimed: { id: string; message: string; claims: number }) => {
        try {
          await handler(JSON.parse(claimed.message));
          await db.deleteFrom('federation_queue').where('id', '=', claimed.id).execute();
        } catch (error) {
          options.log?.warn({ err: error, claims: claimed.claims }, 'federation queue message failed');
          if (claimed.claims >= MAX_CLAIMS)
            await db.deleteFrom('federation_queue').where('id', '=', claimed.id).execute();
          else
            await db
              .updateTable('federation_queue')
              .set({ run_at: Date.now() + 60_000 })
              .where('id', '=', claimed.id)
              .execute();
        }
      };
      try {
        while (!signal?.aborted) {
          const room = concurrency - inFlight.size;
          let claimed: Awaited<ReturnType<typeof claim>> = [];
          if (room > 0) {
            try {
              claimed = await claim(room);
            } catch (error) {
              // The database is away for a moment (a restart, a full pool): look again later.
              options.log?.warn({ err: error }, 'federation queue claim failed');
            }
          }
          for (const one of claimed) {
            const running: Promise<void> = handle(one)
              .catch(() => {})
              .finally(() => {
                inFlight.delete(running);
                waker();
              });
            inFlight.add(running);
          }
          if (claimed.length > 0 && claimed.length === room) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
            signal?.addEventListener('abort', wake, { once: true });
          });
          wake = () => {};
        }
      } finally {
        wakers.delete(waker);
        await Promise.all(inFlight);
      }
    },
  };
}
