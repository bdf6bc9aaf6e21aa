import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp } from '../support/articlesTestClient.ts';
import { identityClient } from '../support/identityTestClient.ts';
import { dialectCases, type TestDatabase } from '../support/testDatabases.ts';
import { databaseUrl, runAdmin } from '../support/adminProcess.ts';
import { startServerProcess, type ServerProcess } from '../support/serverProcess.ts';

const run = promisify(execFile);

// SQLite: the admin command's online backup, restored by copying the file into a new data
// directory. PostgreSQL: the pg_dump command the admin command prints, restored with
// pg_restore into a new database, as docs/deploy.md tells operators to do.
describe.each(dialectCases())('backup while writing, then restore, on $dialect', (dialectCase) => {
  const dirs: string[] = [];
  const databases: TestDatabase[] = [];
  const servers: ServerProcess[] = [];
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

  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const database of databases) await database.dispose();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restores every article acknowledged before the backup began', async () => {
    const live = await newDatabase();
    const common = { PUBLIC_URL: 'http://inkwell.test', RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000' };
    const env = { ...common, DATA_DIR: tempDir('live'), DATABASE_URL: databaseUrl(live.config) };
    const server = await startServerProcess(env);
    servers.push(server);
    const author = await signUp(server.url, 'Writer');
    const api = articlesApi(server.url);

    // Four writers keep creating articles until told to stop.
    const acknowledged: string[] = [];
    let writing = true;
    const writer = async (n: number) => {
      for (let i = 0; writing; i++) {
        const created = await api.create(author.idToken, sampleArticle(`Writer ${n} article ${i}`));
        if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.text}`);
        acknowledged.push(created.body.id);
      }
    };
    const writers = Promise.all([1, 2, 3, 4].map(writer));
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));

    const beforeBackup = [...acknowledged];
    const backupFile = path.join(tempDir('backup'), 'inkwell.backup');
    const backup = await runAdmin(['backup', backupFile, '--json'], env);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const printed = JSON.parse(backup.stdout) as { dialect: string; command?: string };
    if (printed.dialect === 'postgres') {
      // The operator runs the printed command; here its arguments are taken apart without a shell.
      const args = [...printed.command!.matchAll(/--(\w+)=(?:'([^']*)'|(\S+))/g)].map(
        ([, name, quoted, bare]) => `--${name}=${quoted ?? bare}`,
      );
      expect(args[0]).toBe('--format=custom');
      await run('pg_dump', args);
    }
    const countAtBackupEnd = acknowledged.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    writing = false;
    await writers;
    // Writes really were running while the backup was taken.
    expect(countAtBackupEnd).toBeGreaterThan(beforeBackup.length);

    const restoredEnv = { ...common, DATA_DIR: tempDir('restored') };
    if (printed.dialect === 'postgres') {
      const target = await newDatabase();
      await run('pg_restore', ['--no-owner', `--dbname=${databaseUrl(target.config)}`, backupFile]);
      Object.assign(restoredEnv, { DATABASE_URL: databaseUrl(target.config) });
    } else {
      fs.copyFileSync(backupFile, path.join(restoredEnv.DATA_DIR, 'inkwell.db'));
    }
    const restored = await startServerProcess(restoredEnv);
    servers.push(restored);

    const found = new Set<string>();
    let cursor: string | null = null;
    do {
      const page = await articlesApi(restored.url).list(`?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      for (const article of page.body.articles as { id: string }[]) found.add(article.id);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(beforeBackup.filter((id) => !found.has(id))).toEqual([]);
    // Nothing appears that the live server never acknowledged (or had in flight).
    expect(found.size).toBeLessThanOrEqual(acknowledged.length + 4);

    // Accounts and signing keys came along: the author signs in, and old tokens verify.
    expect((await identityClient(restored.url).signIn(author.email, author.password)).status).toBe(200);
    expect((await articlesApi(restored.url).create(author.idToken, sampleArticle('After restore'))).status).toBe(201);
  });
});
