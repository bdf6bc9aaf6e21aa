import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { articleDetailSchema } from '../../shared/articleSchema.ts';
import { openDatabase } from '../db/database.ts';
import { articlesApi, sampleArticle, signUp } from '../../../test/support/articlesTestClient.ts';
import { runSeed, seededRandom, startServerProcess, type ServerProcess } from '../../../test/support/serverProcess.ts';
import { postgresDatabase, type TestDatabase } from '../../../test/support/testDatabases.ts';

const postgres = postgresDatabase();
const ARTICLES = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Decision 0852: two real server processes on one PostgreSQL both poll for due scheduled
// articles; one is killed -9 around their time, perhaps inside its publishing transaction. Its
// claims go with its connection: the survivor publishes every article, each once, dated publishAt.
describe.runIf(postgres)('scheduled publishing survives kill -9 of one of two processes (PostgreSQL)', () => {
  let testDatabase: TestDatabase | undefined;
  const processes: ServerProcess[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const process of processes) await process.stop();
    await testDatabase?.dispose();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const seed = runSeed();
  it(`publishes every due article once after one process dies at their time (seed ${seed})`, async () => {
    const random = seededRandom(seed);
    testDatabase = await postgres!.create();
    if (testDatabase.config.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const url = testDatabase.config.url;
    const env = (name: string) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `inkwell-schedule-${name}-`));
      dirs.push(dataDir);
      return { DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'error', PUBLIC_URL: 'https://blog.example.com' };
    };
    const doomed = await startServerProcess(env('a'));
    processes.push(doomed);
    const survivor = await startServerProcess(env('b'));
    processes.push(survivor);

    const author = await signUp(doomed.url, 'Ann Author');
    // Scheduled through the API for later, then brought to one moment just ahead in one statement
    // (as a clock moved on would): on a busy machine making 40 takes longer than any near time.
    const ids: string[] = [];
    const later = new Date(Date.now() + 3_600_000).toISOString();
    for (let i = 0; i < ARTICLES; i += 1) {
      const made = await articlesApi(doomed.url).create(author.idToken, {
        ...sampleArticle(`Due together ${i}`),
        status: 'scheduled',
        publishAt: later,
      });
      expect(made.status, made.text).toBe(201);
      ids.push(articleDetailSchema.parse(made.body).id);
    }
    const publishAt = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000).toISOString();
    const database = openDatabase(testDatabase.config);
    try {
      await database.db
        .updateTable('articles')
        .set({ publish_at: Date.parse(publishAt) })
        .execute();
    } finally {
      await database.close();
    }
    // Killed at the time, or up to 1.2 s after it (a poll a second): before, inside or after its claim.
    await sleep(Math.max(0, Date.parse(publishAt) - Date.now()) + Math.floor(random() * 1200));
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    const deadline = Date.now() + 30_000;
    for (const id of ids) {
      for (;;) {
        const answer = await articlesApi(survivor.url).get(id);
        if (answer.status === 200) {
          expect(answer.body).toMatchObject({ status: 'published', date: publishAt });
          break;
        }
        if (Date.now() > deadline) throw new Error(`${id} not published after the kill: ${answer.status}`);
        await sleep(200);
      }
    }
    // Each once: one published row per article, none left scheduled.
    const after = openDatabase(testDatabase.config);
    try {
      const rows = await after.db.selectFrom('articles').select(['id', 'status', 'publish_at']).execute();
      expect(rows).toHaveLength(ARTICLES);
      expect(rows.every((row) => row.status === 'published' && row.publish_at === null)).toBe(true);
    } finally {
      await after.close();
    }
  });
});
