import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { openDatabase, type Database } from '../../src/server/db/database.ts';
import { injectRequestsFor } from './injectedFetch.ts';
import type { TestApp } from './testApp.ts';

/** A second server on a test app's database: `url` is where the test's `fetch` reaches it. */
export interface SecondServer {
  url: string;
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

/**
 * Another server on `first`'s database and configuration, with a connection (pool) and a read
 * cache of its own, as a second process behind a load balancer would be: what is written
 * through one must show through the other at once. The test's requests reach it through
 * `inject`, as they reach `first`. Close it before `first`, which owns the database.
 */
export async function startSecondServer(first: TestApp): Promise<SecondServer> {
  const database = openDatabase(first.config.database);
  const app = await buildApp({ config: first.config, database, webDistDir: first.webDistDir, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('second server did not bind a TCP port');
  const url = `http://127.0.0.1:${address.port}`;
  const forget = injectRequestsFor(url, app);
  return {
    url,
    app,
    database,
    close: async () => {
      forget();
      await app.close();
      await database.close();
    },
  };
}
