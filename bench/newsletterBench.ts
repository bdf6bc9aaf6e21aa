import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { SMTPServer } from 'smtp-server';
import { keepAliveClient } from './keepAliveClient.ts';
import { projectRoot, startAppServer, type RunningProcess } from './processes.ts';
import { seedDatabase } from './seed.ts';

// DESIGN.md §9.3's budget: 10,000 confirmed subscribers, one send, a real SMTP server on
// loopback accepting at once: all delivered in <= 60 s while GET / keeps p95 <= 100 ms and
// the server's memory stays under 350 MB. Part of `npm run bench`; alone: `npm run bench:newsletter`.

export const NEWSLETTER_SUBSCRIBERS = 10_000;
export const NEWSLETTER_DELIVERY_BUDGET_S = 60;
export const NEWSLETTER_HOME_P95_BUDGET_MS = 100;
export const NEWSLETTER_RSS_BUDGET_MB = 350;
/** Readers on the home page while the send runs, each opening it again after a short pause. */
const READERS = 4;
const READER_PAUSE_MS = 50;

export interface NewsletterBenchResult {
  delivered: number;
  seconds: number;
  homeRequests: number;
  homeP95Ms: number;
  homeP50Ms: number;
  peakRssMb: number;
}

/** An SMTP server on loopback that accepts everything at once and only counts recipients. */
async function countingSmtp(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    hideSTARTTLS: true,
    authOptional: true,
    closeTimeout: 100,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        // The newsletter's messages only (not the author's verification mail).
        count += session.envelope.rcptTo.filter((rcpt) => rcpt.address.startsWith('reader')).length;
        callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    count: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The admin command as an operator runs it (`npm run admin -- subscribers import FILE`). */
function importSubscribers(dataDir: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(projectRoot, 'src/server/admin/adminCommand.ts'), 'subscribers', 'import', file],
      { env: { PATH: process.env.PATH, DATA_DIR: dataDir, DATABASE_URL: '' }, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`subscribers import exited ${code}`))));
  });
}

export async function benchNewsletter(workDir: string, log: (line: string) => void): Promise<NewsletterBenchResult> {
  const dataDir = path.join(workDir, 'newsletter');
  await seedDatabase({ dataDir, articles: 100 });
  const smtp = await countingSmtp();
  let server: RunningProcess | undefined;
  try {
    server = await startAppServer(dataDir, { NEWSLETTER: 'on', SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' });
    const csv = path.join(workDir, 'subscribers.csv');
    fs.writeFileSync(
      csv,
      ['email', ...Array.from({ length: NEWSLETTER_SUBSCRIBERS }, (_, i) => `reader${i}@example.org`)].join('\n'),
    );
    await importSubscribers(dataDir, csv);
    log(`Newsletter: ${NEWSLETTER_SUBSCRIBERS} confirmed subscribers imported; publishing one article...`);

    const signUp = await fetch(`${server.origin}/identity/v1/accounts:signUp?key=bench`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'newsletter-author@example.com',
        password: 'correct horse battery staple',
        displayName: 'Nell Newsletter',
        returnSecureToken: true,
      }),
    });
    const { idToken } = (await signUp.json()) as { idToken: string };
    // Warm-up of the home page before the clock starts.
    const warm = keepAliveClient(server.origin);
    for (let i = 0; i < 50; i++) await warm.timed('GET', '/');
    warm.close();

    const started = performance.now();
    const published = await fetch(`${server.origin}/api/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify({
        image: 'https://images.example.com/cover.jpg',
        title: 'The newsletter bench',
        description: `A letter to ten thousand readers.\n\n${'Some words worth reading, and then some more. '.repeat(60)}`,
      }),
    });
    if (published.status !== 201) throw new Error(`publishing answered ${published.status}`);

    // Readers on the home page for as long as the send lasts.
    const latencies: number[] = [];
    let sending = true;
    const readers = Array.from({ length: READERS }, async () => {
      const client = keepAliveClient(server!.origin);
      while (sending) {
        latencies.push(await client.timed('GET', '/'));
        await new Promise((resolve) => setTimeout(resolve, READER_PAUSE_MS));
      }
      client.close();
    });
    const deadline = started + 2 * NEWSLETTER_DELIVERY_BUDGET_S * 1000;
    while (smtp.count() < NEWSLETTER_SUBSCRIBERS && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    sending = false;
    await Promise.all(readers);
    const sorted = latencies.sort((a, b) => a - b);
    return {
      delivered: smtp.count(),
      seconds,
      homeRequests: sorted.length,
      homeP50Ms: percentile(sorted, 50),
      homeP95Ms: percentile(sorted, 95),
      peakRssMb: server.peakRssMb(),
    };
  } finally {
    await server?.stop();
    await smtp.close();
  }
}

// Run alone: `npm run bench:newsletter`.
if (import.meta.filename === process.argv[1]) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-newsletter-bench-'));
  try {
    const result = await benchNewsletter(workDir, console.log);
    console.log(JSON.stringify(result, null, 2));
    const pass =
      result.delivered >= NEWSLETTER_SUBSCRIBERS &&
      result.seconds <= NEWSLETTER_DELIVERY_BUDGET_S &&
      result.homeP95Ms <= NEWSLETTER_HOME_P95_BUDGET_MS &&
      result.peakRssMb <= NEWSLETTER_RSS_BUDGET_MB;
    console.log(pass ? 'Newsletter budget: pass' : 'Newsletter budget: FAIL');
    process.exitCode = pass ? 0 : 1;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
