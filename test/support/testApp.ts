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
import { injectRequestsFor } from './injectedFetch.ts';
import type { DialectCase, TestDatabase } from './testDatabases.ts';

export interface TestApp {
  app: FastifyInstance;
  /**
   * http://127.0.0.1:PORT, where the app listens; the test's `fetch` and rawGet hand requests
   * for it to `app.inject` unless `transport` is 'socket'.
   */
  url: string;
  config: Config;
  database: Database;
  /** The web build it serves (the fixture shell or dist/web), for a second server on its database. */
  webDistDir: string;
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
   * How the test's `fetch` (and rawGet) reach the app. 'inject' (default): through
   * `app.inject`, no socket in between. 'socket': over the loopback socket, for tests about the
   * wire itself (slow or stalled clients, connections, bytes as node:http sends them).
   * Either way the app also listens on `url`, so a browser or a raw node:http client reaches it.
   */
  transport?: 'inject' | 'socket';
  /**
   * The web app served: 'fixture' is the source shell with a stand-in script (fixtureWebDist.ts);
   * 'built' is the real Vite build, made first if stale (about a minute). Default: 'fixture',
   * or INKWELL_TEST_WEB_DIST (browser tests set 'built': a browser runs the real app).
   */
  webDist?: 'fixture' | 'built';
  /** How often a provider's keys may be fetched again for an unknown `kid` (default 30 s). */
  providerKeyRefreshCooldownMs?: number;
  /** The port to listen on (default: any free one); federation tests need PUBLIC_URL known first. */
  port?: number;
  /** Fediverse servers on loopback may be fetched and delivered to (federation tests' peers). */
  federationAllowPrivateAddress?: boolean;
  /** Activities one remote server may POST to the inbox per minute (default 600). */
  federationInboxPerServerPerMinute?: number;
  /**
   * Runs on this database instead of a fresh one, and leaves it in place on close: a restart
   * (with other configuration) of the same site.
   */
  database?: TestDatabase;
}

/**
 * Builds the real app on a fresh database and data folder, with a fixture web shell (no web
 * build). The test's requests reach it through `inject` unless `options.transport` says 'socket'.
 * `env` adds configuration variables, as a deployment would set them.
 */
export async function startTestApp(
  dialectCase: DialectCase,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const testDatabase = options.database ?? (await dialectCase.create());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-data-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }), database: testDatabase.config };
  const database = openDatabase(config.database);
  await migrateToLatest(database);
  const webDist = options.webDist ?? (process.env.INKWELL_TEST_WEB_DIST === 'built' ? 'built' : 'fixture');
  if (webDist === 'built') await ensureWebBuild();
  const servedWebDist = webDist === 'built' ? webDistDir : fixtureWebDist();
  const app = await buildApp({
    config,
    database,
    webDistDir: servedWebDist,
    logger: options.logStream ? { stream: options.logStream } : false,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.sitemapPageSize ? { sitemapPageSize: options.sitemapPageSize } : {}),
    ...(options.imageCleanupIntervalMs ? { imageCleanupIntervalMs: options.imageCleanupIntervalMs } : {}),
    ...(options.providerKeyRefreshCooldownMs
      ? { providerKeyRefreshCooldownMs: options.providerKeyRefreshCooldownMs }
      : {}),
    ...(options.federationAllowPrivateAddress ? { federationAllowPrivateAddress: true } : {}),
    ...(options.federationInboxPerServerPerMinute
      ? { federationInboxPerServerPerMinute: options.federationInboxPerServerPerMinute }
      : {}),
  });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server did not bind a TCP port');
  const url = `http://127.0.0.1:${address.port}`;
  const forget = options.transport === 'socket' ? () => {} : injectRequestsFor(url, app);
  return {
    app,
    url,
    config,
    database,
    webDistDir: servedWebDist,
    close: async () => {
      forget();
      await app.close();
      await database.close();
      if (!options.database) await testDatabase.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
