import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { storageDatabases, type TestDatabase } from '../../../test/support/testDatabases.ts';
import { openDatabase, type Database } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';

describe.each(storageDatabases())('migrations on $dialect', (dialectCase) => {
  const opened: Database[] = [];
  let testDatabase: TestDatabase | undefined;

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((d) => d.close()));
    await testDatabase?.dispose();
    testDatabase = undefined;
  });

  async function open() {
    testDatabase ??= await dialectCase.create();
    const database = openDatabase(testDatabase.config);
    opened.push(database);
    return database;
  }

  it('applies every migration on an empty database, then has nothing left to do', async () => {
    const database = await open();
    const first = await migrateToLatest(database);
    expect(first.results?.map((r) => r.migrationName)).toEqual(Object.keys(migrations).sort());
    const second = await migrateToLatest(database);
    expect(second.results).toEqual([]);
  });

  it('lets several processes migrate the same empty database at once', async () => {
    const databases = [await open(), await open(), await open()];
    await Promise.all(databases.map((d) => migrateToLatest(d)));
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      databases[0]!.db,
    );
    expect(rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
  });

  it('answers a ping once open', async () => {
    await expect((await open()).ping()).resolves.toBeUndefined();
  });
});
