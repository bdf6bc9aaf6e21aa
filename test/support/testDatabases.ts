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

/** Creates a fresh PostgreSQL database on the server named by TEST_DATABASE_URL. */
async function createPostgres(adminUrl: string): Promise<TestDatabase> {
  const name = `inkwell_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // FILE_COPY copies the small template's files; PostgreSQL 15's default (WAL_LOG) writes
    // them all to the WAL, several times the CPU per database (decision 0550).
    const { rows } = await admin.query<{ version: string }>(`select current_setting('server_version_num') as version`);
    const strategy = Number(rows[0]!.version) >= 150000 ? ' strategy = file_copy' : '';
    await admin.query(`create database ${name}${strategy}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    config: { kind: 'postgres', url: url.toString(), poolMax: 5 },
    dispose: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export function dialectCases(): DialectCase[] {
  const cases: DialectCase[] = [{ dialect: 'sqlite', create: createSqlite }];
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) cases.push({ dialect: 'postgres', create: () => createPostgres(adminUrl) });
  return cases;
}
