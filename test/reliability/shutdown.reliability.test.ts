import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/serverProcess.ts';
import { storageDatabases, type TestDatabase } from '../support/testDatabases.ts';
import { call, failureCode, inBatches, sampleArticle, signUpUser, type LoadUser } from './loadClient.ts';

/**
 * Graceful shutdown: SIGTERM arrives while clients are busy. Every request the server had
 * started must get its whole answer, and the process must exit 0 within 10 s.
 *
 * Which requests had the server started? Every request carries `?seq=N`, and the server logs
 * each request it reads ("incoming request", with the URL) before handling it. A transport
 * failure for a seq the server logged is a broken in-flight request: the test fails. A failure
 * for a seq it never logged is a request that arrived after the listener closed: a fresh
 * connection is refused (ECONNREFUSED), or a request written onto a kept-alive connection just
 * as the server closed it as idle is cut off ("other side closed"). The server never read
 * those, so it could not have answered them; a client retries them elsewhere. On a busy
 * machine a fresh connection can also wait in the kernel's accept queue, never read; closing
 * the listener resets it (ECONNRESET): that too is a request the server had not started.
 */

const CLIENTS = 30;
const LOAD_BEFORE_SIGTERM_MS = 2500;
const EXIT_DEADLINE_MS = 10_000;

describe.each(storageDatabases())('graceful shutdown on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase;
  let server: ServerProcess | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-shutdown-'));
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await testDatabase?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes every request it started after SIGTERM and exits 0 within 10 s', async () => {
    testDatabase = await dialectCase.create();
    const config = testDatabase.config;
    server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: config.kind === 'sqlite' ? `sqlite:${config.file}` : config.url,
      LOG_LEVEL: 'info',
    });
    const base = server.url;
    const users: LoadUser[] = await inBatches(
      Array.from({ length: 10 }, (_, i) => i),
      4,
      (i) => signUpUser(base, `shutdown-${i}`),
    );

    let seq = 0;
    let exited = false;
    void server.exited.then(() => (exited = true));
    const answered = new Map<number, number>();
    const failed = new Map<number, string>();

    async function client(user: LoadUser) {
      while (!exited) {
        seq += 1;
        const n = seq;
        const roll = Math.random();
        try {
          let outcome;
          if (roll < 0.5) outcome = await call(`${base}/api/articles?limit=20&seq=${n}`);
          else if (roll < 0.7) {
            // Sign-ins take an argon2 verification: the slow requests likeliest to be in flight.
            outcome = await call(`${base}/identity/v1/accounts:signInWithPassword?key=k&seq=${n}`, {
              json: { email: user.email, password: user.password, returnSecureToken: true },
            });
          } else {
            outcome = await call(`${base}/api/articles?seq=${n}`, {
              json: sampleArticle('Shutdown'),
              token: user.idToken,
            });
          }
          answered.set(n, outcome.status);
        } catch (error) {
          failed.set(n, `${failureCode(error)}@${Math.round(performance.now() - loadStart)}ms`);
          return; // this client's server has gone; it stops, as a real client would fail over
        }
      }
    }

    const loadStart = performance.now();
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(users[i % users.length]!));
    await new Promise((resolve) => setTimeout(resolve, LOAD_BEFORE_SIGTERM_MS));
    const signalled = performance.now();
    console.log(`SIGTERM at ${Math.round(signalled - loadStart)} ms`);
    const sentBefore = seq;
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const exitMs = performance.now() - signalled;
    await Promise.all(clients);

    const started = new Set<number>();
    for (const line of server.output().stdout.split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; req?: { url?: string } };
      const match = entry.msg === 'incoming request' ? /[?&]seq=(\d+)/.exec(entry.req?.url ?? '') : null;
      if (match) started.add(Number(match[1]));
    }
    const broken = [...failed].filter(([n]) => started.has(n));
    const answeredAfterSignal = [...answered.keys()].filter((n) => n > sentBefore).length;
    console.log(
      `shutdown on ${dialectCase.dialect}: exit ${exit.code} after ${Math.round(exitMs)} ms; ${answered.size} answered ` +
        `(${answeredAfterSignal} sent after SIGTERM), ${failed.size} never read by the server ` +
        `(${JSON.stringify(Object.fromEntries([...failed].map(([n, code]) => [n, code])))}), ` +
        `statuses ${JSON.stringify([...answered.values()].reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {}))}`,
    );
    expect(broken, 'requests the server had started but never answered').toEqual([]);
    expect(exit.code).toBe(0);
    expect(exitMs).toBeLessThan(EXIT_DEADLINE_MS);
    expect(server.output().stdout).toContain('shut down cleanly');
    // Started requests were answered properly: no 500s while shutting down.
    expect([...answered.values()].filter((status) => status >= 500 && status !== 503)).toEqual([]);
    server = undefined;
  });
});
