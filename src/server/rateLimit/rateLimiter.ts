import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';

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
   * The current decision without counting: allowed=false once `limit` events have been counted
   * in the window, i.e. when the next consume() would be refused. Not a guard for concurrent
   * attempts (they all peek before any counts): count those up front with consume().
   */
  peek(rule: RateLimitRule, key: string): Promise<RateLimitDecision>;
  /** Forgets the count (e.g. after a successful sign-in, if a caller wants that). */
  reset(rule: RateLimitRule, key: string): Promise<void>;
  /** Takes back one counted event, for a caller that counts attempts up front but limits only failures. */
  refund(rule: RateLimitRule, key: string): Promise<void>;
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

  return {
    async consume(rule, key) {
      const now = clock();
      const bucket = bucketOf(rule, key);
      const windowEnd = now + rule.windowMs;
      // One statement, so concurrent requests (and processes) each see a distinct count:
      // the row lock of ON CONFLICT DO UPDATE (PostgreSQL) or the write lock (SQLite) orders them.
      const expired = sql<boolean>`rate_limit_counters.window_start <= ${now - rule.windowMs}`;
      const row = await db
        .insertInto('rate_limit_counters')
        .values({ bucket, count: 1, window_start: now, expires_at: windowEnd })
        .onConflict((conflict) =>
          conflict.column('bucket').doUpdateSet({
            count: sql<number>`case when ${expired} then 1 else rate_limit_counters.count + 1 end`,
            window_start: sql<number>`case when ${expired} then ${now} else rate_limit_counters.window_start end`,
            expires_at: sql<number>`case when ${expired} then ${windowEnd} else rate_limit_counters.window_start + ${rule.windowMs} end`,
          }),
        )
        .returning(['count', 'window_start'])
        .executeTakeFirstOrThrow();

      consumes += 1;
      if (consumes % CLEANUP_EVERY === 0) await removeExpired(now);

      const count = Number(row.count);
      return decide(rule, count, count <= rule.limit, Number(row.window_start), now);
    },

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
      await db.deleteFrom('rate_limit_counters').where('bucket', '=', bucketOf(rule, key)).execute();
    },

    async refund(rule, key) {
      await db
        .updateTable('rate_limit_counters')
        .set({ count: sql<number>`count - 1` })
        .where('bucket', '=', bucketOf(rule, key))
        .where('count', '>', 0)
        .execute();
    },
  };
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
