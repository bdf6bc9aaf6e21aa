import type { Database as BetterSqlite3Database, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Enough for every distinct query the app compiles; the few dynamic ones age out. */
export const STATEMENT_CACHE_SIZE = 256;

/**
 * The better-sqlite3 handle as Kysely's SqliteDialect sees it, but reusing prepared
 * statements: Kysely prepares every query afresh, and preparing (parsing and planning
 * the SQL) costs as much as running a small indexed read. Kysely's driver runs one
 * query at a time on the connection, so a cached statement is never in use twice.
 * Least recently used statements are dropped past `maxSize`.
 */
export function withStatementCache(
  connection: BetterSqlite3Database,
  { maxSize = STATEMENT_CACHE_SIZE, onWrite = () => {} }: { maxSize?: number; onWrite?: () => void } = {},
): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        // Re-inserting moves it to the end: the Map's order is the recency order.
        statements.delete(sql);
      } else {
        statement = connection.prepare(sql);
        if (statements.size >= maxSize) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      // Kysely's driver runs what it prepares at once: a statement that may change the
      // database is about to (readVersionScope.ts forgets a request's read version by it).
      if (!statement.readonly) onWrite();
      return statement;
    },
    close() {
      statements.clear();
      connection.close();
    },
  };
}
