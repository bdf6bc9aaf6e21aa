import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { ensureWebBuild, webDistDir } from '../../src/server/web/webBuild.ts';
import { fixtureWebDist } from './fixtureWebDist.ts';
import { injectedOrigin } from './injectedFetch.ts';
import type { DialectCase } from './testDatabases.ts';

export interface TestApp {
  app: FastifyInstance;
  /**
   * Where to send requests: with `listen`, http://127.0.0.1:PORT of the listening server;
   * otherwise an origin that `fetch` (and rawGet) hand to the app through `inject`.
   */
  url: string;
  config: Config;
  database: Database;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Receives the app's JSON log lines (at LOG_LEVEL from env, default silent). */
  logStream?: NodeJS.WritableStream;
  /** Epoch milliseconds seen by the app; lets a test move time. */
  clock?: () => number;
  /** URLs per sitemap file (default 50,000). */
  sitemapPageSize?: number;
  /** How often unused uploads are looked for (default hourly). */
  imageCleanupIntervalMs?: number;
  /**
   * Listen on a loopback port (a real socket) instead of answering through `inject`: for tests
   * about the wire itself (slow or stalled clients, connections, what node:http sends).
   */
  listen?: boolean;
  /**
   * The web app served: 'fixture' (default) is the source shell with a stand-in script
   * (fixtureWebDist.ts); 'built' is the real Vite build, made first if stale (about a minute).
   */
  webDist?: 'fixture' | 'built';
}

/**
 * Builds the real app on a fresh database and data folder. Requests reach it through `inject`
 * (no socket, no web build) unless `options.listen` asks for a loopback port.
 * `env` adds configuration variables, as a deployment would set them.
 */
export async function startTestApp(
  dialectCase: DialectCase,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const testDatabase = await dialectCase.create();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-data-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }), database: testDatabase.config };
  const database = openDatabase(config.database);
  await migrateToLatest(database);
  if (options.webDist === 'built') await ensureWebBuild();
  const app = await buildApp({
    config,
    database,
    webDistDir: options.webDist === 'built' ? webDistDir : fixtureWebDist(),
    logger: options.logStream ? { stream: options.logStream } : false,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.sitemapPageSize ? { sitemapPageSize: options.sitemapPageSize } : {}),
    ...(options.imageCleanupIntervalMs ? { imageCleanupIntervalMs: options.imageCleanupIntervalMs } : {}),
  });
  const { url, forget } = options.listen ? await listenOnLoopback(app) : await injectOnly(app);
  return {
    app,
    url,
    config,
    database,
    close: async () => {
      forget();
      await app.close();
      await database.close();
      await testDatabase.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function listenOnLoopback(app: FastifyInstance) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server did not bind a TCP port');
  return { url: `http://127.0.0.1:${address.port}`, forget: () => {} };
}

async function injectOnly(app: FastifyInstance) {
  await app.ready();
  const { origin, forget } = injectedOrigin(app);
  return { url: origin, forget };
}
