import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { contractDatabases, type TestDatabase } from '../../../test/support/testDatabases.ts';
import { openDatabase, type Database } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { closeReadVersionScope, newReadVersionScope, runInReadVersionScope } from './readVersionScope.ts';

/** `body` run inside a new request's scope, as the app's first onRequest hook runs the rest of a request. */
function inRequest<T>(body: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) =>
    runInReadVersionScope(newReadVersionScope(), () => body().then(resolve, reject)),
  );
}

const bump = (database: Database) =>
  sql`update read_version set version = version + 1 where id = 1`.execute(database.db);

// The SQLite process's read version, kept for a request (decision 0745); two handles on one file
// stand for two processes sharing it.
describe.each(contractDatabases())('the read version within a request on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase | undefined;
  const opened: Database[] = [];
  const open = () => {
    const database = openDatabase(testDatabase!.config);
    opened.push(database);
    return database;
  };

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
    await testDatabase?.dispose();
  });

  it('is read once per request; the next request, and code outside any, sees another process’s change', async () => {
    testDatabase = await dialectCase.create();
    const here = open();
    await migrateToLatest(here);
    const other = open();

    const [first, during, after] = await inRequest(async () => {
      const first = await here.changeStamp();
      await bump(other);
      const during = await here.changeStamp();
      return [first, during, await other.changeStamp()];
    });
    expect(first).not.toBeNull();
    // Within the request the version it began with stands: nothing older than its arrival.
    expect(during).toBe(first);
    expect(after).not.toBe(first);
    // A new request, and code run by no request (a scheduler), read it afresh.
    expect(await inRequest(() => here.changeStamp())).toBe(after);
    await bump(other);
    expect(await here.changeStamp()).not.toBe(after);
  });

  it('moves at once with the request’s own write, and is forgotten once the request is answered', async () => {
    testDatabase = await dialectCase.create();
    const here = open();
    await migrateToLatest(here);
    const other = open();

    const scope = newReadVersionScope();
    const [before, afterOwnWrite] = await new Promise<Array<string | null>>((resolve, reject) =>
      runInReadVersionScope(scope, () => {
        void (async () => {
          const before = await here.changeStamp();
          await bump(here);
          return [before, await here.changeStamp()];
        })().then(resolve, reject);
      }),
    );
    expect(afterOwnWrite).not.toBe(before);

    // Work the request set off, still running after its answer, reads afresh.
    await bump(other);
    closeReadVersionScope(scope);
    const lateRead = () =>
      new Promise<string | null>((resolve, reject) =>
        runInReadVersionScope(scope, () => void here.changeStamp().then(resolve, reject)),
      );
    const late = await lateRead();
    expect(late).not.toBe(afterOwnWrite);
    expect(late).toBe(await other.changeStamp());
    await bump(other);
    expect(await lateRead()).not.toBe(late);
  });
});
