import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createUnsubscribe } from '../unsubscribe/createUnsubscribe.ts';
import { articlesApi, sampleArticle, signUp } from '../../../test/support/articlesTestClient.ts';
import { startRulesSmtp, type RulesSmtp } from '../../../test/support/recipientRulesSmtp.ts';
import { startServerProcess, type ServerProcess } from '../../../test/support/serverProcess.ts';
import { postgresDatabase, type TestDatabase } from '../../../test/support/testDatabases.ts';
import { createSubscribers } from './subscribers.ts';
import { LEASE_MS } from './sender.ts';

const postgres = postgresDatabase();
const SUBSCRIBERS = 400;

// DESIGN.md §9.3: two real server processes on one PostgreSQL share a send; one is killed -9
// mid-send; the other carries on once the killed one's claims run out: nobody misses the article,
// and only messages that were in flight may come twice.
describe.runIf(postgres)('a newsletter send survives kill -9 of one of two processes (PostgreSQL)', () => {
  let smtp: RulesSmtp | undefined;
  let testDatabase: TestDatabase | undefined;
  const processes: ServerProcess[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const process of processes) await process.stop();
    await smtp?.close();
    await testDatabase?.dispose();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('delivers to every subscriber at least once, repeating at most the in-flight messages', async () => {
    smtp = await startRulesSmtp();
    smtp.delayMs = 15; // a send that lasts a few seconds: time to kill one process in the middle
    testDatabase = await postgres!.create();
    if (testDatabase.config.kind !== 'postgres') throw new Error('expected PostgreSQL');
    const database = openDatabase(testDatabase.config);
    await migrateToLatest(database);
    const unsubscribe = createUnsubscribe({ database, publicUrl: 'http://x', site: { title: 'x' }, listNames: {} });
    const emails = Array.from({ length: SUBSCRIBERS }, (_, i) => `reader${i}@example.org`);
    await createSubscribers({ database, unsubscribe, now: Date.now }).importConfirmed(emails);
    await database.close();

    const env = (name: string) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `inkwell-${name}-`));
      dirs.push(dataDir);
      return {
        DATABASE_URL: (testDatabase!.config as { url: string }).url,
        DATA_DIR: dataDir,
        NEWSLETTER: 'on',
        SMTP_URL: smtp!.url,
        MAIL_POOL_SIZE: '2',
        LOG_LEVEL: 'error',
        PUBLIC_URL: 'https://blog.example.com',
      };
    };
    const first = await startServerProcess(env('a'));
    processes.push(first);
    const second = await startServerProcess(env('b'));
    processes.push(second);

    const author = await signUp(first.url, 'Ann Author');
    const made = await articlesApi(first.url).create(author.idToken, sampleArticle('Mailed through a crash'));
    expect(made.status, made.text).toBe(201);
    const isLetter = (m: { subject: string }) => m.subject === 'Mailed through a crash';
    await smtp.waitFor(60, isLetter, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = smtp.messages.filter(isLetter).length;
    expect(atKill).toBeLessThan(SUBSCRIBERS);

    // The survivor takes the killed process's claims once their lease ends.
    await smtp.waitFor(SUBSCRIBERS, isLetter, LEASE_MS + 60_000);
    const deadline = Date.now() + LEASE_MS + 60_000;
    while (new Set(smtp.messages.filter(isLetter).map((m) => m.to)).size < SUBSCRIBERS && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const letters = smtp.messages.filter(isLetter);
    expect(new Set(letters.map((m) => m.to)).size).toBe(SUBSCRIBERS);
    // In flight at the kill: at most the killed process's lanes' claims (2 x pool size lanes, 10 each).
    expect(letters.length - SUBSCRIBERS).toBeLessThanOrEqual(2 * 2 * 10);
  }, 180_000);
});
