import { sql, type Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { storageDatabases, type TestDatabase } from '../../../../test/support/testDatabases.ts';
import { openDatabase, type Database } from '../database.ts';
import { migrateToLatest } from '../migrate.ts';
import { migrations } from './index.ts';

describe.each(storageDatabases())('migration 0840 on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase | undefined;
  let database: Database | undefined;

  afterEach(async () => {
    await database?.close();
    await testDatabase?.dispose();
  });

  it('moves the read version on any write of the settings, by hand-run SQL too, and goes back down cleanly', async () => {
    testDatabase = await dialectCase.create();
    database = openDatabase(testDatabase.config);
    await migrateToLatest(database);
    const stamps: Array<string | null> = [await database.changeStamp()];
    const moved = async () => {
      stamps.push(await database!.changeStamp());
      return stamps.at(-1) !== stamps.at(-2);
    };

    await sql`insert into site_settings (id, title, updated_at) values (1, 'Hand made', 1)`.execute(database.db);
    expect(await moved()).toBe(true);
    await sql`update site_settings set footer = 'By hand' where id = 1`.execute(database.db);
    expect(await moved()).toBe(true);
    await sql`delete from site_settings`.execute(database.db);
    expect(await moved()).toBe(true);

    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema before 0840 is not the typed one
    const db = database.db as unknown as Kysely<any>;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const names = Object.keys(migrations);
    expect((await migrator.migrateTo(names[names.indexOf('0840_site_settings') - 1]!)).error).toBeUndefined();
    await expect(sql`select id from site_settings`.execute(database.db)).rejects.toThrow();
    // The read version still works for the rest: an article's triggers are untouched.
    expect(await database.changeStamp()).not.toBeNull();
  });
});
