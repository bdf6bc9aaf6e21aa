import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/serverProcess.ts';
import { storageDatabases, type TestDatabase } from '../support/testDatabases.ts';
import { call, failureCode, inBatches, sampleArticle, signUpUser, type LoadUser } from './loadClient.ts';

/**
 * Load: 50 concurrent clients for 20 s against the real server process, mixing reads,
 * sign-ins, token refreshes and writes the way real traffic does (mostly reads). Only
 * correctness is asserted: no 5xx, no dropped connection, no rate limit for legitimate use,
 * and /healthz answering throughout. Then a password-guessing loop does hit the limit.
 */

const CLIENTS = 50;
const DURATION_MS = 20_000;
const HEALTH_EVERY_MS = 250;
// Generous for a shared 2-core machine (other test suites run beside this one): what it
// catches is a server that stops answering - a blocked event loop, a deadlock, a drained pool.
const HEALTH_DEADLINE_MS = 5000;
// Stays under the default 60 articles per user per 10 minutes: legitimate use is never limited.
const CREATES_PER_CLIENT = 30;

describe.each(storageDatabases())('load on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase;
  let server: ServerProcess | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-load-'));
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await testDatabase?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(`serves ${CLIENTS} clients for ${DURATION_MS / 1000} s with no 5xx, no dropped connection and /healthz answering`, async () => {
    testDatabase = await dialectCase.create();
    const config = testDatabase.config;
    server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: config.kind === 'sqlite' ? `sqlite:${config.file}` : config.url,
      DATABASE_POOL_MAX: '10',
      LOG_LEVEL: 'warn',
      // The 50 clients share one address here; in production they would have 50.
      RATE_LIMIT_SIGNIN_ATTEMPTS_PER_IP: '1000000',
    });
    const base = server.url;

    // Accounts exist before the run: sign-ups are rare in real traffic and cost argon2 time.
    const users: LoadUser[] = await inBatches(
      Array.from({ length: CLIENTS }, (_, i) => i),
      4,
      (i) => signUpUser(base, `load-${i}`),
    );
    const seedArticles: string[] = [];
    for (const user of users.slice(0, 10)) {
      const created = await call(`${base}/api/articles`, { json: sampleArticle('Seed'), token: user.idToken });
      expect(created.status).toBe(201);
      seedArticles.push((created.body as { id: string }).id);
    }

    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const serverErrors: string[] = [];
    let requests = 0;
    const record = (what: string, outcome: { status: number; body: unknown }, expected: number[]) => {
      requests += 1;
      statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      if (outcome.status >= 500) serverErrors.push(`${what} → ${outcome.status} ${JSON.stringify(outcome.body)}`);
      else if (!expected.includes(outcome.status)) {
        serverErrors.push(`${what} → unexpected ${outcome.status} ${JSON.stringify(outcome.body)}`);
      }
    };

    const deadline = Date.now() + DURATION_MS;
    let healthPolls = 0;
    let slowestHealthMs = 0;
    // Times at which /healthz answered 200: the longest silence between them is what matters.
    const healthAnswers: number[] = [];
    const healthFailures: string[] = [];
    // A poll every 250 ms, each on its own (a slow answer does not delay the next poll).
    const polls: Promise<void>[] = [];
    const poll = async () => {
      const started = performance.now();
      try {
        const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(HEALTH_DEADLINE_MS) });
        await response.text();
        if (response.status !== 200) healthFailures.push(`status ${response.status}`);
        else healthAnswers.push(performance.now());
      } catch (error) {
        healthFailures.push(failureCode(error));
      }
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
      healthPolls += 1;
    };
    const ticker = setInterval(() => polls.push(poll()), HEALTH_EVERY_MS);
    const health = new Promise<void>((resolve) =>
      setTimeout(() => {
        clearInterval(ticker);
        resolve(Promise.all(polls).then(() => undefined));
      }, DURATION_MS),
    );

    async function client(user: LoadUser) {
      const mine: string[] = [];
      let creates = 0;
      while (Date.now() < deadline) {
        const roll = Math.random();
        try {
          if (roll < 0.45) {
            record('list', await call(`${base}/api/articles?limit=20`), [200]);
          } else if (roll < 0.72) {
            const pool = [...seedArticles, ...mine];
            const id = pool[Math.floor(Math.random() * pool.length)]!;
            // Another client may have deleted its own article meanwhile only if it is in `mine`: ours.
            record('get', await call(`${base}/api/articles/${id}`), [200, 404]);
          } else if (roll < 0.78) {
            const answer = await call(`${base}/identity/v1/accounts:signInWithPassword?key=k`, {
              json: { email: user.email, password: user.password, returnSecureToken: true },
            });
            record('sign-in', answer, [200]);
            if (answer.status === 200) {
              const body = answer.body as { idToken: string; refreshToken: string };
              user.idToken = body.idToken;
              user.refreshToken = body.refreshToken;
            }
          } else if (roll < 0.88) {
            const answer = await call(`${base}/identity/v1/token?key=k`, {
              json: { grant_type: 'refresh_token', refresh_token: user.refreshToken },
            });
            record('refresh', answer, [200]);
            if (answer.status === 200) user.idToken = (answer.body as { id_token: string }).id_token;
          } else if (roll < 0.92) {
            record(
              'lookup',
              await call(`${base}/identity/v1/accounts:lookup?key=k`, { json: { idToken: user.idToken } }),
              [200],
            );
          } else if (mine.length === 0 || (roll < 0.95 && creates < CREATES_PER_CLIENT)) {
            creates += 1;
            const answer = await call(`${base}/api/articles`, { json: sampleArticle('Load'), token: user.idToken });
            record('create', answer, [201]);
            if (answer.status === 201) mine.push((answer.body as { id: string }).id);
          } else if (roll < 0.985) {
            const id = mine[Math.floor(Math.random() * mine.length)]!;
            record(
              'update',
              await call(`${base}/api/articles/${id}`, {
                method: 'PUT',
                json: sampleArticle('Edited'),
                token: user.idToken,
              }),
              [200],
            );
          } else {
            const id = mine.pop()!;
            record(
              'delete',
              await call(`${base}/api/articles/${id}`, { method: 'DELETE', token: user.idToken }),
              [204],
            );
          }
        } catch (error) {
          failures.push(failureCode(error));
        }
      }
    }

    await Promise.all(users.map((user) => client(user)));
    await health;

    console.log(
      `load on ${dialectCase.dialect}: ${requests} requests in ${DURATION_MS / 1000} s; statuses ${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `${healthPolls} health polls, slowest ${Math.round(slowestHealthMs)} ms`,
    );
    expect(failures, 'dropped connections / fetch failures').toEqual([]);
    expect(serverErrors.slice(0, 5), `${serverErrors.length} wrong answers`).toEqual([]);
    expect(statuses.get(429) ?? 0, 'rate limits fired for legitimate use').toBe(0);
    expect(healthFailures).toEqual([]);
    // The number of polls depends on this test process's own timers, which the 50 clients keep
    // busy on a loaded machine; what must hold is that the server was never silent for long.
    expect(healthPolls).toBeGreaterThanOrEqual((DURATION_MS / HEALTH_EVERY_MS) * 0.5);
    const longestSilenceMs = Math.max(...healthAnswers.slice(1).map((at, index) => at - healthAnswers[index]!));
    expect(longestSilenceMs).toBeLessThan(HEALTH_DEADLINE_MS);
    expect(slowestHealthMs).toBeLessThan(HEALTH_DEADLINE_MS);

    // A password-guessing loop: the default 10 failures per email, then 429 - even for the right password.
    const victim = users[0]!;
    const guess = (password: string) =>
      call(`${base}/identity/v1/accounts:signInWithPassword?key=k`, {
        json: { email: victim.email, password, returnSecureToken: true },
      });
    for (let attempt = 1; attempt <= 10; attempt++) {
      const answer = await guess(`guess-${attempt}`);
      expect(answer.status, `guess ${attempt}`).toBe(400);
      expect((answer.body as { error: { message: string } }).error.message).toBe('INVALID_LOGIN_CREDENTIALS');
    }
    for (const password of ['guess-11', victim.password]) {
      const answer = await guess(password);
      expect(answer.status).toBe(429);
      expect((answer.body as { error: { message: string } }).error.message).toBe('TOO_MANY_ATTEMPTS_TRY_LATER');
    }

    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    server = undefined;
  });
});
