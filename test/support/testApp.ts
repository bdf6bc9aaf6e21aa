import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { webDistDir } from '../../src/server/web/webBuild.ts';
import type { DialectCase, TestDatabase } from './testDatabases.ts';

export interface TestApp {
  app: FastifyInstance;
  /** http://127.0.0.1:PORT of the listening server. */
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
   * Runs on this database instead of a fresh one, and leaves it in place on close: a restart
   * (with other configuration) of the same site.
   */
  database?: TestDatabase;
}

/**
 * Starts the real app on a fresh database, listening on a free loopback port.
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
  const app = await buildApp({
    config,
    database,
    webDistDir,
    logger: options.logStream ? { stream: options.logStream } : false,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.sitemapPageSize ? { sitemapPageSize: options.sitemapPageSize } : {}),
    ...(options.imageCleanupIntervalMs ? { imageCleanupIntervalMs: options.imageCleanupIntervalMs } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server did not bind a TCP port');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    app,
    url,
    config,
    database,
    close: async () => {
      await app.close();
      await database.close();
      if (!options.database) await testDatabase.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
