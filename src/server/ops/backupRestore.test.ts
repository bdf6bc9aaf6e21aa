import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp } from '../articles/articlesTestClient.ts';
import { identityClient } from '../identity/identityTestClient.ts';
import { dialectCases } from '../testing/testDatabases.ts';
import { runAdmin, startServerProcess, type ServerProcess } from './serverProcess.ts';

// The online backup is SQLite's (PostgreSQL deployments use pg_dump, which the admin command
// only prints); the restore drill runs wherever SQLite does, which is everywhere.
describe.each(dialectCases().filter((c) => c.dialect === 'sqlite'))(
  'backup while writing, then restore, on $dialect',
  () => {
    const dirs: string[] = [];
    const servers: ServerProcess[] = [];
    const tempDir = (label: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `inkwell-${label}-`));
      dirs.push(dir);
      return dir;
    };

    afterAll(async () => {
      for (const server of servers) await server.stop();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('restores every article acknowledged before the backup began', async () => {
      const dataDir = tempDir('live');
      const env = {
        DATA_DIR: dataDir,
        PUBLIC_URL: 'http://inkwell.test',
        RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000',
      };
      const live = await startServerProcess(env);
      servers.push(live);
      const author = await signUp(live.url, 'Writer');
      const api = articlesApi(live.url);

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
      const backupFile = path.join(tempDir('backup'), 'inkwell-backup.db');
      const backup = await runAdmin(['backup', backupFile, '--json'], { DATA_DIR: dataDir });
      const countAtBackupEnd = acknowledged.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
      writing = false;
      await writers;
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      expect(JSON.parse(backup.stdout)).toMatchObject({ dialect: 'sqlite', file: backupFile });
      // Writes really were running while the backup was taken.
      expect(countAtBackupEnd).toBeGreaterThan(beforeBackup.length);

      // Restore: the backup file becomes the database of a fresh data directory.
      const restoredDir = tempDir('restored');
      fs.copyFileSync(backupFile, path.join(restoredDir, 'inkwell.db'));
      const restored = await startServerProcess({ ...env, DATA_DIR: restoredDir });
      servers.push(restored);

      const found = new Set<string>();
      let cursor: string | null = null;
      do {
        const page = await articlesApi(restored.url).list(`?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        for (const article of page.body.articles as { id: string }[]) found.add(article.id);
        cursor = page.body.nextCursor;
      } while (cursor);
      const missing = beforeBackup.filter((id) => !found.has(id));
      expect(missing).toEqual([]);
      // Nothing appears that the live server never acknowledged (or had in flight).
      expect(found.size).toBeLessThanOrEqual(acknowledged.length + 4);

      // Accounts and signing keys came along: the author signs in, and old tokens verify.
      expect((await identityClient(restored.url).signIn(author.email, author.password)).status).toBe(200);
      expect((await articlesApi(restored.url).create(author.idToken, sampleArticle('After restore'))).status).toBe(201);
    });
  },
);
