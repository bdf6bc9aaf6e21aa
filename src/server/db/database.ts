import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database as DatabaseConfig } from '../config.ts';
import type { DatabaseSchema } from './schema.ts';
import { readOncePerRequest } from './readVersionScope.ts';
import { sharedRead } from './sharedRead.ts';
import { withStatementCache } from './statementCache.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DatabaseSchema>;
  dialect: Dialect;
  /** Throws when the database cannot answer a trivial query. */
  ping(): Promise<void>;
  /**
   * The read version (migration 0011): a value that differs whenever an article or an author's
   * name has changed since the last call, through this process or any other; null when it
   * cannot be read (the table is not migrated yet), which means: do not answer from memory.
   * See stampedCache.ts. On SQLite a request reads it once, and again after its own writes
   * (readVersionScope.ts): another process's change during a request shows from the next one.
   */
  changeStamp(): Promise<string | null>;
  /** PostgreSQL only: connections in the pool and clients waiting for one (metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

const PG_INT8 = 20;
const READ_VERSION_SQL = 'select version from read_version where id = 1';

export function openDatabase(config: DatabaseConfig): Database {
  return config.kind === 'sqlite' ? openSqlite(config.file) : openPostgres(config.url, config.poolMax);
}

function openSqlite(file: string): Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new BetterSqlite3(file);
  // WAL lets readers run while a write commits; NORMAL sync is durable across process
  // crashes in WAL mode (only an OS crash can lose the last commits).
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('cache_size = -16000');
  // Temporary tables and sorts stay in memory (the list query needs none; see the plan test).
  // mmap_size stays 0 on purpose: mapped pages a read touches count in the process RSS, so
  // a large database would grow it without bound; pread into the 16 MB cache keeps it flat.
  connection.pragma('temp_store = MEMORY');
  // This connection's own writes, counted as they are prepared: a request's read version is
  // kept only until one (readVersionScope.ts).
  let writes = 0;
  const db = new Kysely<DatabaseSchema>({
    dialect: new SqliteDialect({ database: withStatementCache(connection, { onWrite: () => writes++ }) }),
  });
  let readVersion: BetterSqlite3.Statement | undefined;
  const readVersionNow = (): string | null => {
    try {
      // Straight on the connection, prepared once: Kysely's query building would cost more than the read.
      readVersion ??= connection.prepare(READ_VERSION_SQL).pluck();
      const version = readVersion.get() as number | undefined;
      return version === undefined ? null : String(version);
    } catch {
      return null; // not migrated yet, or the connection is busy with a streamed read
    }
  };
  const readVersionOfRequest = readOncePerRequest(connection, readVersionNow, () => writes);
  return {
    db,
    dialect: 'sqlite',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    changeStamp: async () => readVersionOfRequest(),
    close: () => db.destroy(),
  };
}

function openPostgres(url: string, poolMax: number): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    connectionTimeoutMillis: 5000,
    // Epoch-millisecond columns are bigint; they fit a JS number exactly.
    types: {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
    } as pg.CustomTypesConfig,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  // A named statement (parsed and planned once per connection), shared by the requests of its moment.
  const readVersion = sharedRead(async () => {
    try {
      const result = await pool.query<{ version: number }>({ name: 'read_version', text: READ_VERSION_SQL });
      const version = result.rows[0]?.version;
      return version === undefined ? null : String(version);
    } catch {
      return null;
    }
  });
  return {
    db,
    dialect: 'postgres',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    changeStamp: readVersion,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}
