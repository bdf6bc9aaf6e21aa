import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { startTestPeer, type TestPeer } from '../src/server/federation/federationTestPeer.ts';
import { ensureWebBuild, webDistDir } from '../src/server/web/webBuild.ts';

// DESIGN.md §9.4's budget: one publication to 1,000 followers on 50 servers delivered in <= 10 s;
// an inbox POST answers in p95 <= 50 ms (the work is queued). In process (the peers are Fedify
// servers on loopback, which only a test configuration may reach). Part of `npm run bench`;
// alone: `npm run bench:federation`.

export const FEDERATION_SERVERS = 50;
export const FEDERATION_FOLLOWERS_PER_SERVER = 20;
export const FEDERATION_DELIVERY_BUDGET_S = 10;
export const FEDERATION_INBOX_P95_BUDGET_MS = 50;
const INBOX_POSTS = 300;
const INBOX_WARMUP = 20;

export interface FederationBenchResult {
  followers: number;
  servers: number;
  reached: number;
  seconds: number;
  inboxP50Ms: number;
  inboxP95Ms: number;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

export async function benchFederation(workDir: string, log: (line: string) => void): Promise<FederationBenchResult> {
  await ensureWebBuild();
  const dataDir = fs.mkdtempSync(path.join(workDir, 'federation-'));
  const port = await freePort();
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    FEDERATION: 'on',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  const database = openDatabase(config.database);
  await migrateToLatest(database);
  const app = await buildApp({
    config,
    database,
    webDistDir,
    logger: false,
    federationAllowPrivateAddress: true,
    federationInboxPerServerPerMinute: 100_000,
  });
  await app.listen({ port, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  const peers: TestPeer[] = [];
  try {
    const users = Array.from({ length: FEDERATION_FOLLOWERS_PER_SERVER }, (_, i) => `reader${i}`);
    for (let i = 0; i < FEDERATION_SERVERS; i += 1) peers.push(await startTestPeer({ users }));
    // The followers as their Follows would have left them (a Follow each is not what is measured).
    const now = Date.now();
    const rows = peers.flatMap((peer) =>
      users.map((user) => ({
        actor_id: peer.actorUri(user),
        handle: `@${user}@${peer.host}`,
        domain: peer.host,
        inbox: `${peer.actorUri(user)}/inbox`,
        shared_inbox: `${peer.origin}/inbox`,
        follow_id: `${peer.actorUri(user)}#follow`,
        created_at: now,
      })),
    );
    for (let i = 0; i < rows.length; i += 200) {
      await database.db
        .insertInto('federation_followers')
        .values(rows.slice(i, i + 200))
        .execute();
    }
    const signUp = await fetch(`${url}/identity/v1/accounts:signUp?key=bench`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'fedi@example.com', password: 'correct horse battery', returnSecureToken: true }),
    });
    const { idToken } = (await signUp.json()) as { idToken: string };
    log(`Federation: ${rows.length} followers on ${peers.length} servers; publishing...`);
    const started = performance.now();
    const made = await fetch(`${url}/api/articles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify({
        image: 'https://example.com/cover.jpg',
        title: 'To the fediverse',
        description: 'One publication, a thousand followers.',
      }),
    });
    const article = (await made.json()) as { id: string };
    const articleUrl = `${url}/article/${article.id}`;
    const reached = () =>
      peers.filter((peer) => peer.received.some((one) => one.type === 'Create' && one.objectId === articleUrl)).length;
    const deadline = started + 60_000;
    while (reached() < peers.length && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = (performance.now() - started) / 1000;

    // Inbox POSTs: Likes signed beforehand (signing is the sender's work), sent one after another.
    const peer = peers[0]!;
    const requests: Request[] = [];
    for (let i = 0; i < INBOX_WARMUP + INBOX_POSTS; i += 1) {
      requests.push(
        await peer.signedPost('reader0', `${url}/ap/inbox`, {
          '@context': 'https://www.w3.org/ns/activitystreams',
          id: `${peer.origin}/users/reader0/likes/${i}`,
          type: 'Like',
          actor: peer.actorUri('reader0'),
          object: articleUrl,
        }),
      );
    }
    const times: number[] = [];
    for (const [i, request] of requests.entries()) {
      const at = performance.now();
      const answer = await fetch(request);
      await answer.arrayBuffer();
      if (answer.status !== 202) throw new Error(`an inbox POST answered ${answer.status}`);
      if (i >= INBOX_WARMUP) times.push(performance.now() - at);
    }
    return {
      followers: rows.length,
      servers: peers.length,
      reached: reached(),
      seconds,
      inboxP50Ms: percentile(times, 50),
      inboxP95Ms: percentile(times, 95),
    };
  } finally {
    for (const peer of peers) await peer.close();
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// `npm run bench:federation`: this case alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-'));
  const result = await benchFederation(workDir, console.log);
  console.log(
    `Federation: one publication to ${result.followers} followers on ${result.servers} servers reached ${result.reached} in ${result.seconds.toFixed(1)} s (budget <= ${FEDERATION_DELIVERY_BUDGET_S} s)`,
  );
  console.log(
    `Federation: inbox POST p50 ${result.inboxP50Ms.toFixed(1)} ms, p95 ${result.inboxP95Ms.toFixed(1)} ms (budget <= ${FEDERATION_INBOX_P95_BUDGET_MS} ms)`,
  );
  fs.rmSync(workDir, { recursive: true, force: true });
  const pass =
    result.reached === result.servers &&
    result.seconds <= FEDERATION_DELIVERY_BUDGET_S &&
    result.inboxP95Ms <= FEDERATION_INBOX_P95_BUDGET_MS;
  process.exit(pass ? 0 : 1);
}
