import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startAppServer, type RunningProcess } from './processes.ts';
import { createBenchPostgres } from './postgresBench.ts';
import { measureSearch } from './searchLatency.ts';
import { seedDatabase } from './seed.ts';

/**
 * `npm run bench:search`: search latency over 100,000 seeded articles on SQLite (the budget:
 * p95 <= 50 ms), and over the same on PostgreSQL when BENCH_POSTGRES_URL or TEST_DATABASE_URL
 * names a server (reported). `npm run bench` runs the SQLite part as its search phase.
 */
const ARTICLES = Number(process.env.BENCH_SEARCH_ARTICLES ?? 100_000);
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-search-bench-'));
const running: RunningProcess[] = [];
const fmt = (ms: number) => ms.toFixed(1);
const env = { RATE_LIMIT_SEARCH_PER_IP: '1000000' };

async function main() {
  const sqliteDir = path.join(workDir, 'sqlite');
  const seeded = await seedDatabase({ dataDir: sqliteDir, articles: ARTICLES });
  console.log(`SQLite: seeded ${ARTICLES.toLocaleString('en')} articles in ${seeded.seconds.toFixed(1)} s`);
  const server = await startAppServer(sqliteDir, env);
  running.push(server);
  const sqlite = await measureSearch(server.origin);
  await server.stop();
  console.log(
    `SQLite search, typical mix: p50 ${fmt(sqlite.typical.p50Ms)} ms, p95 ${fmt(sqlite.typical.p95Ms)} ms (${sqlite.typical.requests} requests)`,
  );
  console.log(
    `SQLite search, a word in every article: p50 ${fmt(sqlite.everyArticle.p50Ms)} ms, p95 ${fmt(sqlite.everyArticle.p95Ms)} ms`,
  );
  const pass = sqlite.typical.p95Ms <= 50;
  console.log(`Budget: search p95 <= 50 ms on SQLite at 100,000 articles: ${pass ? 'PASS' : 'FAIL'}`);

  const postgres = await createBenchPostgres();
  if (postgres) {
    try {
      const pgDir = path.join(workDir, 'postgres');
      fs.mkdirSync(pgDir, { recursive: true });
      process.env.DATABASE_URL = postgres.url;
      try {
        const pgSeeded = await seedDatabase({ dataDir: pgDir, articles: ARTICLES });
        console.log(`PostgreSQL: seeded in ${pgSeeded.seconds.toFixed(1)} s`);
      } finally {
        delete process.env.DATABASE_URL;
      }
      const pgServer = await startAppServer(pgDir, { ...env, DATABASE_URL: postgres.url });
      running.push(pgServer);
      const pg = await measureSearch(pgServer.origin);
      await pgServer.stop();
      console.log(
        `PostgreSQL search, typical mix: p50 ${fmt(pg.typical.p50Ms)} ms, p95 ${fmt(pg.typical.p95Ms)} ms (reported)`,
      );
      console.log(
        `PostgreSQL search, a word in every article: p50 ${fmt(pg.everyArticle.p50Ms)} ms, p95 ${fmt(pg.everyArticle.p95Ms)} ms (reported)`,
      );
    } finally {
      await postgres.drop();
    }
  }
  return pass;
}

main()
  .then((pass) => {
    process.exitCode = pass ? 0 : 1;
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const process of running) await process.stop().catch(() => undefined);
    fs.rmSync(workDir, { recursive: true, force: true });
  });
