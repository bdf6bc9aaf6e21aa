import { afterEach, describe, expect, it } from 'vitest';
import { Temporal } from '@js-temporal/polyfill';
import { storageDatabases, type TestDatabase } from '../../../test/support/testDatabases.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { kyselyMessageQueue } from './kyselyMessageQueue.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The delivery queue (decision 0700) on both engines: durable, shared by processes, leased.
describe.each(storageDatabases())('the federation queue on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase | undefined;
  const opened: Database[] = [];
  const stops: AbortController[] = [];
  const open = async () => {
    testDatabase ??= await dialectCase.create();
    const database = openDatabase(testDatabase.config);
    opened.push(database);
    await migrateToLatest(database);
    return database;
  };
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop.abort();
    await wait(50);
    for (const database of opened.splice(0)) await database.close();
    await testDatabase?.dispose();
    testDatabase = undefined;
  });
  const listen = (
    queue: ReturnType<typeof kyselyMessageQueue>,
    handler: (message: unknown) => Promise<void> | void,
  ) => {
    const stop = new AbortController();
    stops.push(stop);
    void queue.listen(handler, { signal: stop.signal });
  };

  it('hands each message to exactly one of two processes sharing the database', async () => {
    const first = kyselyMessageQueue(await open(), { pollMs: 20 });
    const second = kyselyMessageQueue(await open(), { pollMs: 20 });
    const seen: { by: string; n: number }[] = [];
    listen(first, async (message) => {
      seen.push({ by: 'first', n: (message as { n: number }).n });
      await wait(2);
    });
    listen(second, async (message) => {
      seen.push({ by: 'second', n: (message as { n: number }).n });
      await wait(2);
    });
    await first.enqueueMany!(Array.from({ length: 60 }, (_, n) => ({ n })));
    for (let n = 60; n < 80; n += 1) await second.enqueue({ n });
    for (let i = 0; i < 200 && seen.length < 80; i += 1) await wait(25);
    await wait(100);
    expect(seen.map((one) => one.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 80 }, (_, n) => n));
    expect(new Set(seen.map((one) => one.by))).toEqual(new Set(['first', 'second']));
  });

  it('keeps a message until it is due, and across a restart', async () => {
    const before = kyselyMessageQueue(await open());
    // Timed from the enqueue: closing and opening the database again may take longer than the delay.
    const started = Date.now();
    await before.enqueue({ kept: true }, { delay: Temporal.Duration.from({ milliseconds: 400 }) as never });
    await opened[0]!.close();
    opened.length = 0;
    const after = kyselyMessageQueue(await open(), { pollMs: 20 });
    const handled: { message: unknown; at: number }[] = [];
    listen(after, (message) => {
      handled.push({ message, at: Date.now() - started });
    });
    for (let i = 0; i < 250 && handled.length === 0; i += 1) await wait(20);
    expect(handled).toHaveLength(1);
    expect(handled[0]!.message).toEqual({ kept: true });
    expect(handled[0]!.at).toBeGreaterThanOrEqual(390);
  });

  it('gives a message whose worker died to another once the lease ends', async () => {
    // A lease long beside the 150 ms looked at below: on a loaded machine (a fresh-clone run)
    // noticing the claim took long enough for a 300 ms lease to run out before the look.
    const dying = kyselyMessageQueue(await open(), { pollMs: 20, leaseMs: 1500 });
    const survivor = kyselyMessageQueue(await open(), { pollMs: 20, leaseMs: 1500 });
    let claimedByDying = false;
    // The dying process claims the message and never finishes it (killed mid-delivery).
    listen(dying, () => {
      claimedByDying = true;
      return new Promise<void>(() => {});
    });
    await dying.enqueue({ once: 'more' });
    for (let i = 0; i < 100 && !claimedByDying; i += 1) await wait(10);
    expect(claimedByDying).toBe(true);
    stops[0]!.abort();
    const handled: unknown[] = [];
    listen(survivor, (message) => {
      handled.push(message);
    });
    await wait(150);
    expect(handled).toEqual([]); // still leased
    for (let i = 0; i < 250 && handled.length === 0; i += 1) await wait(20);
    expect(handled).toEqual([{ once: 'more' }]);
  });
});
