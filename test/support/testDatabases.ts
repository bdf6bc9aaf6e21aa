import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Database as DatabaseConfig } from '../../src/server/config.ts';

/** A throwaway database: its configuration and how to remove it. */
export interface TestDatabase {
  config: DatabaseConfig;
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

const databaseUrl = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * Leaves the database as CREATE DATABASE made it: its other sessions ended (as DROP DATABASE
 * ... WITH (FORCE) would) and the public schema, with everything in it, made anew.
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
  const url = databaseUrl(adminUrl, name);
  return {
    config: { kind: 'postgres', url, poolMax: 5 },
    dispose: async () => {
      if (prefix) {
        await emptyDatabase(url);
        emptiedDatabases.push(name);
      } else {
        await withClient(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
      }
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

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export function dialectCases(): DialectCase[] {
  const cases: DialectCase[] = [{ dialect: 'sqlite', create: createSqlite }];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) cases.push({ dialect: 'postgres', create: () => createPostgres(adminUrl) });
  return cases;
}
