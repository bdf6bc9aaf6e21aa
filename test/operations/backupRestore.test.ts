import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp } from '../support/articlesTestClient.ts';
import { identityClient } from '../support/identityTestClient.ts';
import { databaseUrl } from '../support/adminRunner.ts';
import { restoreBackup, scratchInstallations, takeBackup } from '../support/operatorBackup.ts';
import { storageDatabases } from '../support/testDatabases.ts';

// SQLite: the admin command's online backup, restored by copying the file into a new data
// directory. PostgreSQL: the pg_dump command the admin command prints, restored with
// pg_restore into a new database, as docs/deploy.md tells operators to do.
describe.each(storageDatabases())('backup while writing, then restore, on $dialect', (dialectCase) => {
  const { tempDir, newDatabase, startServer } = scratchInstallations(dialectCase);

  it('restores every article acknowledged before the backup began', async () => {
    const live = await newDatabase();
    const common = { PUBLIC_URL: 'http://inkwell.test', RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000' };
    const env = { ...common, DATA_DIR: tempDir('live'), DATABASE_URL: databaseUrl(live.config) };
    const server = await startServer(env);
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
    const backup = await takeBackup(env, backupFile);
    const countAtBackupEnd = acknowledged.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    writing = false;
    await writers;
    // Writes really were running while the backup was taken.
    expect(countAtBackupEnd).toBeGreaterThan(beforeBackup.length);

    const restored = await startServer({
      ...common,
      ...(await restoreBackup(backup, { dataDir: tempDir('restored'), newDatabase })),
    });

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
