import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { storageDatabases, type TestDatabase } from '../../../test/support/testDatabases.ts';
import { createRateLimiter, type RateLimitRule } from './rateLimiter.ts';

const signIn: RateLimitRule = { name: 'signIn:email', limit: 3, windowMs: 15 * 60_000 };
const signUp: RateLimitRule = { name: 'signUp:ip', limit: 3, windowMs: 60 * 60_000 };

/** A clock the test moves by hand. */
function manualClock(start = 1_800_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe.each(storageDatabases())('rate limiter on $dialect', (dialectCase) => {
  const opened: Database[] = [];
  let testDatabase: TestDatabase | undefined;

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((d) => d.close()));
    await testDatabase?.dispose();
    testDatabase = undefined;
  });

  async function open(): Promise<Database> {
    const first = testDatabase === undefined;
    testDatabase ??= await dialectCase.create();
    const database = openDatabase(testDatabase.config);
    opened.push(database);
    if (first) await migrateToLatest(database);
    return database;
  }

  it('allows exactly `limit` events, refuses the next, and says how long to wait', async () => {
    const clock = manualClock();
    const limiter = createRateLimiter(await open(), clock.now);

    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limiter.consume(signIn, 'reader@example.com'));
    expect(decisions).toEqual([
      { allowed: true, remaining: 2, retryAfterSeconds: 0 },
      { allowed: true, remaining: 1, retryAfterSeconds: 0 },
      { allowed: true, remaining: 0, retryAfterSeconds: 0 },
    ]);

    clock.advance(60_300); // 839.7 s of the 900 s window left
    expect(await limiter.consume(signIn, 'reader@example.com')).toEqual({
      allowed: false,
      remaining: 0,
      retryAfterSeconds: 840,
    });
    clock.advance(839_000); // 0.7 s left
    expect(await limiter.consume(signIn, 'reader@example.com')).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
  });

  it('starts a fresh window once the old one has passed', async () => {
    const clock = manualClock();
    const limiter = createRateLimiter(await open(), clock.now);
    for (let i = 0; i < 4; i++) await limiter.consume(signIn, 'reader@example.com');
    expect((await limiter.peek(signIn, 'reader@example.com')).allowed).toBe(false);

    clock.advance(signIn.windowMs - 1);
    expect((await limiter.consume(signIn, 'reader@example.com')).allowed).toBe(false);
    clock.advance(1);
    expect(await limiter.peek(signIn, 'reader@example.com')).toEqual({
      allowed: true,
      remaining: 3,
      retryAfterSeconds: 0,
    });
    expect(await limiter.consume(signIn, 'reader@example.com')).toEqual({
      allowed: true,
      remaining: 2,
      retryAfterSeconds: 0,
    });
  });

  it('keeps keys and rules apart', async () => {
    const limiter = createRateLimiter(await open());
    for (let i = 0; i < 4; i++) await limiter.consume(signIn, 'reader@example.com');
    expect((await limiter.consume(signIn, 'reader@example.com')).allowed).toBe(false);
    expect(await limiter.consume(signIn, 'other@example.com')).toMatchObject({ allowed: true, remaining: 2 });
    expect(await limiter.consume(signUp, 'reader@example.com')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('counts 50 concurrent events on one key exactly once each', async () => {
    const limiter = createRateLimiter(await open());
    const rule: RateLimitRule = { name: 'burst', limit: 1000, windowMs: 60_000 };
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.consume(rule, '203.0.113.9')));
    expect(decisions.map((d) => d.remaining).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => 950 + i),
    );
    expect(await limiter.peek(rule, '203.0.113.9')).toMatchObject({ remaining: 950 });
  });

  it('shares counts between separate connections to the same database (as separate processes would)', async () => {
    const rule: RateLimitRule = { name: 'shared', limit: 40, windowMs: 60_000 };
    const first = createRateLimiter(await open());
    const second = createRateLimiter(await open());
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).consume(rule, 'reader@example.com')),
    );
    expect(await first.peek(rule, 'reader@example.com')).toMatchObject({ allowed: false, remaining: 0 });
    expect((await second.consume(rule, 'reader@example.com')).allowed).toBe(false);
  });

  it('peek reports without counting; reset forgets', async () => {
    const limiter = createRateLimiter(await open());
    for (let i = 0; i < 10; i++) {
      expect(await limiter.peek(signIn, 'reader@example.com')).toEqual({
        allowed: true,
        remaining: 3,
        retryAfterSeconds: 0,
      });
    }
    await limiter.consume(signIn, 'reader@example.com');
    expect(await limiter.peek(signIn, 'reader@example.com')).toMatchObject({ allowed: true, remaining: 2 });
    await limiter.consume(signIn, 'reader@example.com');
    await limiter.consume(signIn, 'reader@example.com');
    // The limit is used up: the next attempt would be refused, so peek refuses it up front.
    expect((await limiter.peek(signIn, 'reader@example.com')).allowed).toBe(false);
    expect((await limiter.peek(signIn, 'reader@example.com')).retryAfterSeconds).toBeGreaterThan(0);

    await limiter.reset(signIn, 'reader@example.com');
    expect(await limiter.peek(signIn, 'reader@example.com')).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('refund takes back one counted event, never going below zero', async () => {
    const limiter = createRateLimiter(await open());
    await limiter.refund(signIn, 'reader@example.com'); // nothing counted yet: no effect
    for (let i = 0; i < 3; i++) await limiter.consume(signIn, 'reader@example.com');
    await limiter.refund(signIn, 'reader@example.com');
    expect(await limiter.peek(signIn, 'reader@example.com')).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limiter.consume(signIn, 'reader@example.com')).allowed).toBe(true);
    expect((await limiter.consume(signIn, 'reader@example.com')).allowed).toBe(false);
  });

  it('stores a hash of rule and key, never the key itself', async () => {
    const database = await open();
    const limiter = createRateLimiter(database);
    await limiter.consume(signIn, 'reader@example.com');
    await limiter.consume(signUp, '203.0.113.9');
    const rows = await database.db.selectFrom('rate_limit_counters').selectAll().execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.bucket).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain('reader');
      expect(JSON.stringify(row)).not.toContain('203.0.113');
    }
  });

  it('consumeAll counts several rules in one call, each with its own limit and window', async () => {
    const clock = manualClock();
    const limiter = createRateLimiter(await open(), clock.now);
    const short: RateLimitRule = { name: 'short', limit: 2, windowMs: 1000 };
    const checks = [
      [signIn, 'reader@example.com'],
      [short, 'reader@example.com'],
    ] as const;
    expect(await limiter.consumeAll(checks)).toEqual([
      { allowed: true, remaining: 2, retryAfterSeconds: 0 },
      { allowed: true, remaining: 1, retryAfterSeconds: 0 },
    ]);
    await limiter.consumeAll(checks);
    clock.advance(400);
    expect(await limiter.consumeAll(checks)).toEqual([
      { allowed: true, remaining: 0, retryAfterSeconds: 0 },
      { allowed: false, remaining: 0, retryAfterSeconds: 1 },
    ]);
    // The short window has passed, the long one has not.
    clock.advance(600);
    expect(await limiter.consumeAll(checks)).toEqual([
      { allowed: false, remaining: 0, retryAfterSeconds: 899 },
      { allowed: true, remaining: 1, retryAfterSeconds: 0 },
    ]);
    expect(await limiter.peek(signIn, 'reader@example.com')).toMatchObject({ allowed: false, remaining: 0 });
    expect(await limiter.peek(short, 'reader@example.com')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('consumeAll counts concurrent calls naming the same counters in either order exactly once each', async () => {
    const limiter = createRateLimiter(await open());
    const a: RateLimitRule = { name: 'a', limit: 1000, windowMs: 60_000 };
    const b: RateLimitRule = { name: 'b', limit: 1000, windowMs: 60_000 };
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        limiter.consumeAll(
          i % 2 === 0
            ? [
                [a, 'k'],
                [b, 'k'],
              ]
            : [
                [b, 'k'],
                [a, 'k'],
              ],
        ),
      ),
    );
    expect(await limiter.peek(a, 'k')).toMatchObject({ remaining: 960 });
    expect(await limiter.peek(b, 'k')).toMatchObject({ remaining: 960 });
  });

  it('settle() in transactions never deadlocks with concurrent consumes of the same counters', async () => {
    const database = await open();
    const limiter = createRateLimiter(database);
    const email: RateLimitRule = { name: 'email', limit: 1000, windowMs: 60_000 };
    const ip: RateLimitRule = { name: 'ip', limit: 1000, windowMs: 60_000 };
    // Each "sign-in" counts both, then forgives both inside a transaction that holds its locks a
    // while; listed in both orders, so one of them is not the counters' lock order.
    const signIn = async (i: number) => {
      const checks = [
        [email, `reader-${i % 3}`],
        [ip, '203.0.113.9'],
      ] as const;
      await limiter.consumeAll(checks);
      await database.db.transaction().execute(async (trx) => {
        const changes =
          i % 2 === 0 ? { reset: [checks[0]], refund: [checks[1]] } : { reset: [checks[1]], refund: [checks[0]] };
        await limiter.settle(changes, trx);
        await new Promise((resolve) => setTimeout(resolve, 5));
      });
    };
    await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(i)));
  });

  it('consumeAll refuses a counter named twice in one call', async () => {
    const limiter = createRateLimiter(await open());
    await expect(
      limiter.consumeAll([
        [signIn, 'reader@example.com'],
        [signIn, 'reader@example.com'],
      ]),
    ).rejects.toThrow(/only once/);
  });

  it('removes expired counters as it goes, so the table does not grow forever', async () => {
    const database = await open();
    const clock = manualClock();
    const limiter = createRateLimiter(database, clock.now);
    const rule: RateLimitRule = { name: 'churn', limit: 5, windowMs: 1000 };
    for (let i = 0; i < 99; i++) await limiter.consume(rule, `key-${i}`);
    clock.advance(1000);
    await limiter.consume(rule, 'fresh'); // the 100th consume cleans up
    const rows = await database.db.selectFrom('rate_limit_counters').select('bucket').execute();
    expect(rows).toHaveLength(1);
  });
});
