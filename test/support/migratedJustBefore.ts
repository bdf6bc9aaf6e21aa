import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { openDatabase, type Database } from '../../src/server/db/database.ts';
import { migrations } from '../../src/server/db/migrations/index.ts';
import type { DialectCase } from './testDatabases.ts';

/** A fresh database whose schema stops just before one migration, for testing what it does to old rows. */
export interface DatabaseBeforeMigration {
  database: Database;
  /** The same database, untyped: the schema before the migration is not the typed one. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the old schema is not the typed one
  db: Kysely<any>;
  /**
   * Writes the account `u1` (old@example.com) with the columns every release has had, for the
   * old articles a test writes next to belong to; `columns` adds or replaces values of columns
   * that existed then (a display name, say).
   */
  addOldAuthor(columns?: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/**
 * Creates a database and runs every migration before `migrationName` (in the order the
 * migrator runs them: by name), so a test can write rows as the older release did, then call
 * migrateToLatest and read what the migration made of them.
 */
export async function migratedJustBefore(
  dialectCase: DialectCase,
  migrationName: string,
): Promise<DatabaseBeforeMigration> {
  const names = Object.keys(migrations).sort();
  const index = names.indexOf(migrationName);
  if (index < 1) throw new Error(`no migration before ${migrationName} (known: ${names.join(', ')})`);
  const testDatabase = await dialectCase.create();
  const database = openDatabase(testDatabase.config);
  const close = async () => {
    await database.close();
    await testDatabase.dispose();
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  const db = database.db as unknown as Kysely<any>;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(names[index - 1]!);
  if (error) {
    await close();
    throw error;
  }
  const addOldAuthor = async (columns: Record<string, unknown> = {}) => {
    await db
      .insertInto('users')
      .values({
        id: 'u1',
        email: 'old@example.com',
        password_hash: 'x',
        created_at: 1,
        password_updated_at: 1,
        valid_since: 1,
        ...columns,
      })
      .execute();
  };
  return { database, db, addOldAuthor, close };
}
