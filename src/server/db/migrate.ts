import { sql, type Kysely } from 'kysely';
import { Migrator, type MigrationResultSet } from 'kysely/migration';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';

// Any fixed number; all Inkwell processes sharing a PostgreSQL database use it.
const PG_MIGRATION_LOCK = 7_453_201;

/** Brings the schema up to date. Safe to run from several processes at once. */
export async function migrateToLatest(database: Database): Promise<MigrationResultSet> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works below the typed schema
  const run = (db: Kysely<any>, disableTransactions = false) =>
    new Migrator({ db, disableTransactions, provider: { getMigrations: async () => migrations } }).migrateToLatest();

  if (database.dialect === 'sqlite') {
    // Kysely's migration lock is a no-op on SQLite and its transaction is deferred, so two
    // processes can both see a migration as pending. BEGIN IMMEDIATE takes the write lock
    // before anything is read; the other process waits (busy_timeout), then finds nothing to do.
    return database.db.connection().execute(async (connection) => {
      await beginImmediate(connection);
      try {
        const result = check(await run(connection, true));
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw error;
      }
    });
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

const SQLITE_LOCK_WAIT_MS = 30_000;

/**
 * Takes SQLite's write lock, waiting without blocking the event loop: better-sqlite3 waits
 * for a busy lock synchronously, which would stall every other connection in this process,
 * including one holding the lock.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- below the typed schema, as above
async function beginImmediate(connection: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection);
  const busyTimeout = Number(rows[0]?.timeout ?? 5000);
  await sql`pragma busy_timeout = 0`.execute(connection);
  try {
    const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
    for (;;) {
      try {
        await sql`begin immediate`.execute(connection);
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  } finally {
    await sql.raw(`pragma busy_timeout = ${busyTimeout}`).execute(connection);
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

/** Names of migrations not yet applied to this database (all of them on an empty one). */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}
