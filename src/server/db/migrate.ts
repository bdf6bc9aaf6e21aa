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

  if (database.dialect === 'sqlite') {
    // Kysely takes no lock on SQLite (it assumes one connection), and runs no transaction
    // there, so two processes on one file could both apply a migration. BEGIN IMMEDIATE takes
    // the file's write lock (waiting busy_timeout), serialising the runs, and makes each
    // run all-or-nothing.
    await beginImmediate(database.db);
    let result: MigrationResultSet;
    try {
      result = await run(database.db);
    } catch (error) {
      await sql`rollback`.execute(database.db);
      throw error;
    }
    await sql.raw(result.error ? 'rollback' : 'commit').execute(database.db);
    return check(result);
  }
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

// How long a start-up waits for another process's migration run on the same SQLite file.
const SQLITE_LOCK_WAIT_MS = 60_000;

/**
 * BEGIN IMMEDIATE, waiting for the write lock without blocking the event loop (better-sqlite3
 * is synchronous: its busy_timeout would stall every other connection in this process).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- below the typed schema
async function beginImmediate(db: Kysely<any>): Promise<void> {
  const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
  await sql`pragma busy_timeout = 0`.execute(db);
  try {
    for (;;) {
      try {
        await sql`begin immediate`.execute(db);
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  } finally {
    await sql`pragma busy_timeout = 5000`.execute(db);
  }
}

function check(result: MigrationResultSet): MigrationResultSet {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? '(setup)'} failed: ${cause}`, { cause: result.error });
  }
  return result;
}
