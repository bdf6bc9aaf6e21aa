import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeArticleCursor } from '../../src/server/articles/articleCursor.ts';
import { newArticleId } from '../../src/server/articles/articleId.ts';
import { createArticlesRepository } from '../../src/server/articles/articlesRepository.ts';
import { openDatabase } from '../../src/server/db/database.ts';
import { databaseUrl } from '../support/adminRunner.ts';
import { signUp } from '../support/articlesTestClient.ts';
import { startServerProcess, type ServerProcess } from '../support/serverProcess.ts';
import { storageDatabases, type TestDatabase } from '../support/testDatabases.ts';

const ARTICLES = 400;
const DESCRIPTION_CHARACTERS = 20_000;
const MADE_UP_CURSORS = 100;
const AT_ONCE = 10;

/**
 * The memory settings `npm start` runs the server with (package.json): the heap limits as
 * NODE_OPTIONS and MALLOC_ARENA_MAX (decisions 0007 and 0042), so the process measured here
 * is sized like the one deployed. Without them V8 lets garbage pile up to a heap several times
 * larger before collecting, which is RSS but not memory the server holds.
 */
function productionMemorySettings(): Record<string, string> {
  const packageJson = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = packageJson.scripts.start.split(/\s+/);
  const heapFlags = words.filter((word) => /^--max-(old|semi)-space-size=\d+$/.test(word));
  const arenas = words.find((word) => word.startsWith('MALLOC_ARENA_MAX='))?.split('=')[1];
  if (heapFlags.length === 0 || arenas === undefined)
    throw new Error('npm start no longer sets the heap flags this test copies');
  return { NODE_OPTIONS: heapFlags.join(' '), MALLOC_ARENA_MAX: arenas };
}

/** The server process's resident memory, MB (Linux). */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)![1]) / 1024;
}

/** A long article body that does not compress to nothing (words drawn from a small vocabulary). */
function longDescription(seed: number): string {
  const words = ['harbour', 'lantern', 'quiet', 'morning', 'compiler', 'river', 'paper', 'window', 'orchard', 'signal'];
  const parts: string[] = [];
  let state = seed + 1;
  let length = 0;
  while (length < DESCRIPTION_CHARACTERS - 20) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const word = `${words[state % words.length]!}${state % 97}`;
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(' ');
}

/**
 * The security review's finding (issue 13): anonymous list requests with made-up cursors and
 * limit=100 filled the read cache with pages nobody had been handed, and it was capped by
 * entries, not bytes (169 -> 797 MB with 100 requests). Anonymous requests must not grow memory.
 */
describe.each(storageDatabases())('anonymous list requests with made-up cursors, on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase;
  let server: ServerProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-memory-'));

  beforeAll(async () => {
    testDatabase = await dialectCase.create();
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl(testDatabase.config),
      LOG_LEVEL: 'warn',
      ...productionMemorySettings(),
    };
    server = await startServerProcess(env);
    const author = await signUp(server.url, 'Prolific');
    // Written straight into the database: 400 long articles through the API would take minutes.
    const database = openDatabase(testDatabase.config);
    try {
      const repository = createArticlesRepository(database.db);
      const start = Date.UTC(2026, 0, 1);
      for (let batch = 0; batch < ARTICLES; batch += 100) {
        await repository.insertBatch(
          Array.from({ length: 100 }, (_, i) => ({
            id: newArticleId(),
            image: 'https://pictures.example/cover.jpg',
            title: `Article ${batch + i}`,
            description: longDescription(batch + i),
            authorId: author.uid,
            date: start + (batch + i) * 60_000,
          })),
        );
      }
    } finally {
      await database.close();
    }
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await testDatabase?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const list = (cursor: string) =>
    fetch(`${server.url}/api/articles?limit=100&cursor=${cursor}`, { headers: { 'accept-encoding': 'br, gzip' } });

  /** A cursor the server never handed out: a position between two real articles, made up. */
  const madeUp = (n: number) =>
    encodeArticleCursor({ date: Date.UTC(2026, 0, 1) + (ARTICLES - n) * 60_000 - 1 - (n % 7), id: `madeup${n}` });

  it(`grows by less than 50 MB over ${MADE_UP_CURSORS} made-up cursors, and /healthz stays fast meanwhile`, async () => {
    // Warm up the code paths (JIT, compression) with a few made-up cursors inside the list.
    for (let i = 0; i < 3; i++) await (await list(madeUp(MADE_UP_CURSORS + 50 + i))).arrayBuffer();
    const before = rssMb(server.child.pid!);

    for (let n = 0; n < MADE_UP_CURSORS; n += AT_ONCE) {
      const batch = Array.from({ length: AT_ONCE }, (_, i) => list(madeUp(n + i)));
      // /healthz answers while ten such pages are being made.
      const started = performance.now();
      const health = await fetch(`${server.url}/healthz`);
      const healthMs = performance.now() - started;
      expect(health.status).toBe(200);
      expect(healthMs, `healthz during batch ${n / AT_ONCE}`).toBeLessThan(100);
      for (const response of await Promise.all(batch)) {
        expect(response.status).toBe(200);
        const page = JSON.parse(Buffer.from(await response.arrayBuffer()).toString()) as { articles: unknown[] };
        expect(page.articles.length).toBeGreaterThan(0);
      }
    }

    const after = rssMb(server.child.pid!);
    expect(after - before, `RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MB`).toBeLessThan(50);
  }, 120_000);
});
