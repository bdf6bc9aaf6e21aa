import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Database as DatabaseConfig } from '../../src/server/config.ts';

/** A throwaway database: its configuration and how to be done with it. */
export interface TestDatabase {
  config: DatabaseConfig;
  /** Removes it, or on PostgreSQL under Vitest empties it for the next test (createPostgres). */
  dispose(): Promise<void>;
}

export interface DialectCase {
  dialect: 'sqlite' | 'postgres';
  create(): Promise<TestDatabase>;
}

async function createSqlite(): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-test-'));
  return {
    config: { kind: 'sqlite', file: path.join(dir, 'inkwell.db') },
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Set by Vitest's global setup (globalSetup.ts): the name prefix of the databases this run
 * creates, which its teardown drops. Unset elsewhere (Playwright), where each database is
 * dropped when disposed.
 */
export const POOLED_DATABASES_PREFIX_VARIABLE = 'INKWELL_TEST_DATABASE_PREFIX';

/**
 * Databases this test process created and emptied again, for the next test to use. CREATE
 * DATABASE cost about 0.3 s of PostgreSQL's CPU each, the largest share of its time in the
 * suite; emptying the public schema costs a fraction of that (decision 0550).
 */
const emptiedDatabases: string[] = [];

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const urlOfDatabase = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * Ends the database's other sessions (as DROP DATABASE ... WITH (FORCE) does) and makes its
 * public schema anew, empty: where every migration puts its tables, functions and indexes.
 * Not a new database: what lives outside that schema would stay, and a pool left open by a
 * test could connect again (DROP DATABASE refused it).
 */
async function emptyDatabase(url: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    await client.query('drop schema public cascade');
    await client.query('create schema public');
  });
}

/** A fresh, empty PostgreSQL database on the server named by TEST_DATABASE_URL. */
async function createPostgres(adminUrl: string): Promise<TestDatabase> {
  const prefix = process.env[POOLED_DATABASES_PREFIX_VARIABLE];
  const reused = prefix ? emptiedDatabases.pop() : undefined;
  const name = reused ?? `${prefix ?? 'inkwell_test_'}${randomBytes(6).toString('hex')}`;
  if (!reused) await withClient(adminUrl, (admin) => admin.query(`create database ${name}`));
  const url = urlOfDatabase(adminUrl, name);
  const drop = async () => {
    await withClient(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
  };
  let disposed = false;
  return {
    config: { kind: 'postgres', url, poolMax: 5 },
    dispose: async () => {
      // Once: a second call must not hand the same database to two later tests.
      if (disposed) return;
      disposed = true;
      if (!prefix) return drop();
      try {
        await emptyDatabase(url);
      } catch {
        // A user that may create databases but not replace their public schema (owned by the
        // superuser before PostgreSQL 15): drop this one, as without reuse.
        return drop();
      }
      emptiedDatabases.push(name);
    },
  };
}

/** Drops every database whose name starts with `prefix` (the global teardown's cleanup). */
export async function dropDatabases(adminUrl: string, prefix: string): Promise<void> {
  await withClient(adminUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
  });
}

const sqlite: DialectCase = { dialect: 'sqlite', create: createSqlite };

/**
 * The databases a test file runs on, chosen by what it proves (decision 0781):
 *
 * - `contractDatabases()`: SQLite only. HTTP contracts: what a route answers, its validation,
 *   permissions, texts and headers. The answer is built by the same code on either database;
 *   running it twice proved the same thing twice (a third of Vitest's CPU went to PostgreSQL
 *   repeats of such tests).
 * - `storageDatabases()`: SQLite always, PostgreSQL too when TEST_DATABASE_URL is set (CI sets
 *   it). What the database itself decides: storage and its queries (paging, search, ordering,
 *   constraints), migrations, races and transactions, queues, caches across processes, backups.
 *
 * A contract test that turns out to depend on the database belongs to the second.
 */
export function contractDatabases(): DialectCase[] {
  return [sqlite];
}

/** See contractDatabases. */
export function storageDatabases(): DialectCase[] {
  const cases: DialectCase[] = [sqlite];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) cases.push({ dialect: 'postgres', create: () => createPostgres(adminUrl) });
  return cases;
}

/** PostgreSQL alone, for what only it has (several connections racing, crash recovery); undefined without TEST_DATABASE_URL. */
export function postgresDatabase(): DialectCase | undefined {
  return storageDatabases().find((dialectCase) => dialectCase.dialect === 'postgres');
}
