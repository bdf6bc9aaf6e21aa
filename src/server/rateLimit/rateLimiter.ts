import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';

/** Where settle() runs: the database, or a caller's transaction so it commits with the caller's writes. */
export type RateLimitExecutor = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

export interface RateLimitRule {
  /** Names the counter family, e.g. 'signIn:email'; part of the stored bucket. */
  name: string;
  /** Events allowed per window. */
  limit: number;
  windowMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Events still allowed in the current window. */
  remaining: number;
  /** Seconds until the window ends, rounded up, when not allowed; 0 when allowed. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one event for `key` under `rule`; allowed=false once the count exceeds rule.limit within the window. */
  consume(rule: RateLimitRule, key: string): Promise<RateLimitDecision>;
  /**
   * consume() for several (rule, key) pairs in one statement, decisions in the same order.
   * Each pair must name a different counter.
   */
  consumeAll(checks: ReadonlyArray<readonly [RateLimitRule, string]>): Promise<RateLimitDecision[]>;
  /**
   * The current decision without counting: allowed=false once `limit` events have been counted
   * in the window, i.e. when the next consume() would be refused. Not a guard for concurrent
   * attempts (they all peek before any counts): count those up front with consume().
   */
  peek(rule: RateLimitRule, key: string): Promise<RateLimitDecision>;
  /** Forgets the count (e.g. after a successful sign-in, if a caller wants that). */
  reset(rule: RateLimitRule, key: string): Promise<void>;
  /** Takes back one counted event, for a caller that counts attempts up front but limits only failures. */
  refund(rule: RateLimitRule, key: string): Promise<void>;
  /**
   * reset() of `reset` and refund() of `refund`, touching the rows in the order consumeAll()
   * locks them (bucket order): a caller's transaction doing this cannot deadlock with
   * concurrent consumes on PostgreSQL.
   */
  settle(
    changes: {
      reset: ReadonlyArray<readonly [RateLimitRule, string]>;
      refund: ReadonlyArray<readonly [RateLimitRule, string]>;
    },
    executor?: RateLimitExecutor,
  ): Promise<void>;
}

// Expired rows are deleted every this many consumes, so the table stays the size of the
// currently active windows without a background job.
const CLEANUP_EVERY = 100;

/** Fixed-window rate limits counted in the database, so they hold across processes. */
export function createRateLimiter(database: Database, clock: () => number = Date.now): RateLimiter {
  const { db } = database;
  let consumes = 0;

  async function removeExpired(now: number) {
    try {
      await db.deleteFrom('rate_limit_counters').where('expires_at', '<=', now).execute();
    } catch {
      // Housekeeping only: the next round tries again, and counting must not fail because of it.
    }
  }

  async function consumeAll(checks: ReadonlyArray<readonly [RateLimitRule, string]>): Promise<RateLimitDecision[]> {
    const now = clock();
    const rows = checks.map(([rule, key]) => ({
      bucket: bucketOf(rule, key),
      count: 1,
      window_start: now,
      expires_at: now + rule.windowMs,
    }));
    // Rows are written (and, on PostgreSQL, locked) in bucket order, so two requests counting
    // overlapping buckets always take the locks in the same order and cannot deadlock.
    const values = [...rows].sort(inBucketOrder);
    if (values.some((row, i) => i > 0 && row.bucket === values[i - 1]!.bucket)) {
      throw new Error('consumeAll: a counter may be named only once per call');
    }
    // One statement, so concurrent requests (and processes) each see a distinct count:
    // the row lock of ON CONFLICT DO UPDATE (PostgreSQL) or the write lock (SQLite) orders them.
    // Each row carries its own rule's window: excluded.window_start is now and
    // excluded.expires_at - excluded.window_start the window's length.
    const windowMs = sql<number>`(excluded.expires_at - excluded.window_start)`;
    const expired = sql<boolean>`rate_limit_counters.window_start <= excluded.window_start - ${windowMs}`;
    const counted = await db
      .insertInto('rate_limit_counters')
      .values(values)
      .onConflict((conflict) =>
        conflict.column('bucket').doUpdateSet({
          count: sql<number>`case when ${expired} then 1 else rate_limit_counters.count + 1 end`,
          window_start: sql<number>`case when ${expired} then excluded.window_start else rate_limit_counters.window_start end`,
          expires_at: sql<number>`case when ${expired} then excluded.expires_at else rate_limit_counters.window_start + ${windowMs} end`,
        }),
      )
      .returning(['bucket', 'count', 'window_start'])
      .execute();

    consumes += 1;
    if (consumes % CLEANUP_EVERY === 0) await removeExpired(now);

    const byBucket = new Map(counted.map((row) => [row.bucket, row]));
    return checks.map(([rule], i) => {
      const row = byBucket.get(rows[i]!.bucket);
      if (!row) throw new Error('rate limit counter not returned');
      const count = Number(row.count);
      return decide(rule, count, count <= rule.limit, Number(row.window_start), now);
    });
  }

  async function resetBucket(bucket: string, executor: RateLimitExecutor) {
    await executor.deleteFrom('rate_limit_counters').where('bucket', '=', bucket).execute();
  }

  async function refundBucket(bucket: string, executor: RateLimitExecutor) {
    await executor
      .updateTable('rate_limit_counters')
      .set({ count: sql<number>`count - 1` })
      .where('bucket', '=', bucket)
      .where('count', '>', 0)
      .execute();
  }

  return {
    async consume(rule, key) {
      return (await consumeAll([[rule, key]]))[0]!;
    },

    consumeAll,

    async peek(rule, key) {
      const now = clock();
      const row = await db
        .selectFrom('rate_limit_counters')
        .select(['count', 'window_start'])
        .where('bucket', '=', bucketOf(rule, key))
        .executeTakeFirst();
      const windowStart = row === undefined ? now : Number(row.window_start);
      const count = row === undefined || windowStart <= now - rule.windowMs ? 0 : Number(row.count);
      return decide(rule, count, count < rule.limit, windowStart, now);
    },

    async reset(rule, key) {
      await resetBucket(bucketOf(rule, key), db);
    },

    async refund(rule, key) {
      await refundBucket(bucketOf(rule, key), db);
    },

    async settle(changes, executor = db) {
      const steps = [
        ...changes.reset.map(([rule, key]) => ({ bucket: bucketOf(rule, key), run: resetBucket })),
        ...changes.refund.map(([rule, key]) => ({ bucket: bucketOf(rule, key), run: refundBucket })),
      ].sort(inBucketOrder);
      for (const step of steps) await step.run(step.bucket, executor);
    },
  };
}

// The one order every statement touches counter rows in, so PostgreSQL row locks cannot deadlock.
function inBucketOrder(a: { bucket: string }, b: { bucket: string }): number {
  return a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0;
}

/** Emails and IP addresses are not kept in plain text: the row is named by a hash. */
function bucketOf(rule: RateLimitRule, key: string): string {
  return createHash('sha256').update(`${rule.name}\0${key}`).digest('hex');
}

function decide(
  rule: RateLimitRule,
  count: number,
  allowed: boolean,
  windowStart: number,
  now: number,
): RateLimitDecision {
  const windowLeftMs = windowStart + rule.windowMs - now;
  return {
    allowed,
    remaining: Math.max(0, rule.limit - count),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(windowLeftMs / 1000)),
  };
}
