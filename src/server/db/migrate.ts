import { sql, type Kysely } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';

// Any fixed number; all Inkwell processes sharing a PostgreSQL database use it.
const PG_MIGRATION_LOCK = 7_453_201;

/** Brings the schema up to date. Safe to run from several processes at once. */
export async function migrateToLatest(database: Database): Promise<MigrationResultSet> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works below the typed schema
  const run = (db: Kysely<any>) =>
    new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();

  if (database.dialect === 'sqlite') return check(await run(database.db));
  // Kysely locks only after creating its own tables, and two processes creating them at
  // once can collide; a session-level advisory lock serialises the whole run.
  return database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${PG_MIGRATION_LOCK})`.execute(connection);
    try {
      return check(await run(connection));
    } finally {
      await sql`select pg_advisory_unlock(${PG_MIGRATION_LOCK})`.execute(connection);
    }
  });
}

function check(result: MigrationResultSet): MigrationResultSet {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? '(setup)'} failed: ${cause}`, { cause: result.error });
  }
  return result;
}
