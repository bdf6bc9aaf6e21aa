import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect } from 'vitest';
import { databaseUrl, runAdminProcess } from './adminRunner.ts';
import { startServerProcess, type ServerProcess } from './serverProcess.ts';
import type { DialectCase, TestDatabase } from './testDatabases.ts';

const run = promisify(execFile);

export interface TakenBackup {
  dialect: 'sqlite' | 'postgres';
  file: string;
}

/**
 * Scratch directories, databases and server processes for one describe block, all removed
 * after it. Operations tests start and restore whole installations; this keeps their cleanup in
 * one place.
 */
export function scratchInstallations(dialectCase: DialectCase) {
  const dirs: string[] = [];
  const databases: TestDatabase[] = [];
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const database of databases) await database.dispose();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = (label: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `inkwell-${label}-`));
    dirs.push(dir);
    return dir;
  };
  const newDatabase = async () => {
    const database = await dialectCase.create();
    databases.push(database);
    return database;
  };
  const startServer = async (env: Record<string, string>) => {
    const server = await startServerProcess(env);
    servers.push(server);
    return server;
  };
  return { tempDir, newDatabase, startServer };
}

/**
 * The backup as docs/deploy.md tells operators to take it: the admin command copies a SQLite
 * database, and for PostgreSQL prints the pg_dump command, which is run here (its arguments taken
 * apart without a shell).
 */
export async function takeBackup(env: Record<string, string>, file: string): Promise<TakenBackup> {
  // The operator's process: it must also exit by itself once the copy is written.
  const backup = await runAdminProcess(['backup', file, '--json'], env);
  expect(backup.stderr).toBe('');
  expect(backup.code).toBe(0);
  const printed = JSON.parse(backup.stdout) as { dialect: TakenBackup['dialect']; command?: string };
  if (printed.dialect === 'postgres') {
    const args = [...printed.command!.matchAll(/--(\w+)=(?:'([^']*)'|(\S+))/g)].map(
      ([, name, quoted, bare]) => `--${name}=${quoted ?? bare}`,
    );
    expect(args[0]).toBe('--format=custom');
    await run('pg_dump', args);
  }
  return { dialect: printed.dialect, file };
}

/**
 * Restores a backup as docs/deploy.md says (the file copied into a new data directory, or
 * pg_restore into a new database) and returns the environment a server needs to run on it.
 */
export async function restoreBackup(
  backup: TakenBackup,
  into: { dataDir: string; newDatabase: () => Promise<TestDatabase> },
): Promise<Record<string, string>> {
  if (backup.dialect === 'postgres') {
    const target = await into.newDatabase();
    await run('pg_restore', ['--no-owner', `--dbname=${databaseUrl(target.config)}`, backup.file]);
    return { DATA_DIR: into.dataDir, DATABASE_URL: databaseUrl(target.config) };
  }
  fs.copyFileSync(backup.file, path.join(into.dataDir, 'inkwell.db'));
  return { DATA_DIR: into.dataDir };
}
