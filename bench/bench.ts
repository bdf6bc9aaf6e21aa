import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashPassword, verifyPassword } from '../src/server/identity/core/passwords/passwordHashing.ts';
import { ensureWebBuild } from '../src/server/web/webBuild.ts';
import { benchComments, commentsBudgets, COMMENTS_ON_PAGE } from './commentsBench.ts';
import { keepAliveClient } from './keepAliveClient.ts';
import { median, runLoad, type LoadResult, type LoadSpec } from './load.ts';
import {
  cpuSeconds,
  projectRoot,
  saveResponse,
  startAppServer,
  startBareServer,
  type RunningProcess,
} from './processes.ts';
import { createBenchPostgres } from './postgresBench.ts';
import { measureSearch } from './searchLatency.ts';
import { seedDatabase, type SeedResult } from './seed.ts';
import {
  benchNewsletter,
  NEWSLETTER_DELIVERY_BUDGET_S,
  NEWSLETTER_HOME_P95_BUDGET_MS,
  NEWSLETTER_RSS_BUDGET_MB,
  NEWSLETTER_SUBSCRIBERS,
} from './newsletterBench.ts';
import {
  benchFederation,
  FEDERATION_DELIVERY_BUDGET_S,
  FEDERATION_FOLLOWERS_PER_SERVER,
  FEDERATION_INBOX_P95_BUDGET_MS,
  FEDERATION_SERVERS,
} from './federationBench.ts';
import { benchUploads, describeUploads, UPLOAD_RSS_BUDGET_MB, uploadPeakMb } from './uploads.ts';

// `npm run bench`: see bench/README.md. Loopback only; stops by itself.
const ROUND_SECONDS = 3;
const ENDPOINT_SECONDS = 4;
const HARD_LIMIT_MS = 8 * 60 * 1000;
const HASH_ROUNDS = 80;
const HASH_WARMUP_ROUNDS = 5;
const POSTGRES_ARTICLES = 10_000;
/** `npm run bench -- --list-only`: the list phases only (for profiling; budgets of other phases are not judged). */
const LIST_ONLY = process.argv.includes('--list-only');

interface Row {
  name: string;
  result: LoadResult;
}
interface Budget {
  name: string;
  value: string;
  limit: string;
  pass: boolean;
}

const running: RunningProcess[] = [];
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-'));
const hardLimit = setTimeout(() => {
  console.error(`The bench ran over ${HARD_LIMIT_MS / 60000} minutes; stopping.`);
  for (const process_ of running) process_.child.kill('SIGKILL');
  process.exit(1);
}, HARD_LIMIT_MS);
hardLimit.unref();

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const log = (line: string) => console.log(line);

/** Runs `a` and `b` alternately, `rounds` times each, so drift on a shared machine hits both alike. */
async function alternate(rounds: number, a: LoadSpec, b: LoadSpec) {
  const as: LoadResult[] = [];
  const bs: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) {
    as.push(await runLoad({ seconds: ROUND_SECONDS, ...a }));
    bs.push(await runLoad({ seconds: ROUND_SECONDS, ...b }));
  }
  const pick = (results: LoadResult[]): LoadResult => ({
    requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: median(results.map((r) => r.p99Ms)),
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    failures: results.reduce((sum, r) => sum + r.failures, 0),
  });
  const ratio = median(as.map((r, i) => r.requestsPerSecond / bs[i]!.requestsPerSecond));
  return { a: pick(as), b: pick(bs), ratio };
}

function printRows(rows: Row[]) {
  log('');
  log(`| Endpoint | req/s | p50 ms | p99 ms | requests | non-2xx/errors |`);
  log(`|---|---:|---:|---:|---:|---:|`);
  for (const { name, result } of rows) {
    log(
      `| ${name} | ${fmt(result.requestsPerSecond, 0)} | ${fmt(result.p50Ms, 2)} | ${fmt(result.p99Ms, 2)} | ${result.requests} | ${result.failures} |`,
    );
  }
}

function printBudgets(budgets: Budget[]) {
  log('');
  log(`| Budget | Measured | Limit | Result |`);
  log(`|---|---|---|---|`);
  for (const budget of budgets) {
    log(`| ${budget.name} | ${budget.value} | ${budget.limit} | ${budget.pass ? 'PASS' : 'FAIL'} |`);
  }
}

async function main() {
  const started = Date.now();
  log('Building the web app if stale...');
  await ensureWebBuild(log);

  const seeds: Record<'small' | 'large', SeedResult> = {
    small: await seedDatabase({ dataDir: path.join(workDir, 'small'), articles: 100 }),
    large: await seedDatabase({ dataDir: path.join(workDir, 'large'), articles: 100_000 }),
  };
  log(`Seeded 100 articles in ${fmt(seeds.small.seconds)} s, 100,000 in ${fmt(seeds.large.seconds)} s`);

  const small = await startAppServer(path.join(workDir, 'small'));
  running.push(small);
  // Search is rate limited per client IP; the bench is one client.
  const large = await startAppServer(path.join(workDir, 'large'), { RATE_LIMIT_SEARCH_PER_IP: '1000000' });
  running.push(large);

  const rows: Row[] = [];
  // The large server's memory after each phase: where the peak comes from.
  const rss: Array<{ after: string; rssMb: number; peakMb: number }> = [{ after: 'start', ...large.rssMb() }];
  const budgets: Budget[] = [];
  const listUrl = (server: RunningProcess) => `${server.origin}/api/articles?limit=20`;
  const deepUrl = (server: RunningProcess, seed: SeedResult) =>
    `${server.origin}/api/articles?limit=20&cursor=${seed.deepCursor}`;

  // Warm-up: JIT, SQLite cache, statement cache.
  for (const server of [small, large]) await runLoad({ url: listUrl(server), seconds: 1 });

  log('List pages, 100 vs 100,000 articles (alternating rounds)...');
  const first = await alternate(3, { url: listUrl(small) }, { url: listUrl(large) });
  // A reader reaches the deep page by paging: the page before it hands its cursor out.
  for (const [server, seed] of [
    [small, seeds.small],
    [large, seeds.large],
  ] as const) {
    await (await fetch(`${server.origin}/api/articles?limit=20&cursor=${seed.deepPreviousCursor}`)).arrayBuffer();
  }
  const deep = await alternate(3, { url: deepUrl(small, seeds.small) }, { url: deepUrl(large, seeds.large) });
  rss.push({ after: 'list pages', ...large.rssMb() });
  rows.push({ name: 'GET /api/articles first page (100 articles)', result: first.a });
  rows.push({ name: 'GET /api/articles first page (100,000)', result: first.b });
  rows.push({ name: 'GET /api/articles deep page, cursor at 90 % (100)', result: deep.a });
  rows.push({ name: 'GET /api/articles deep page, cursor at 90 % (100,000)', result: deep.b });
  for (const [label, pair] of [
    ['first page', first],
    ['deep page', deep],
  ] as const) {
    // pair.ratio is (100 articles' req/s) / (100,000 articles' req/s): how much slower the big list is.
    const slowdown = pair.ratio;
    budgets.push({
      name: `List ${label}: 100,000 articles vs 100 (throughput, median of rounds)`,
      value: `${fmt(slowdown, 2)}x slower`,
      limit: '<= 1.5x',
      pass: slowdown <= 1.5,
    });
  }

  log('List throughput vs a bare node:http server with the same bytes (A/B rounds)...');
  const responseFile = path.join(workDir, 'list-page-response.json');
  await saveResponse(listUrl(large), responseFile);
  const bare = await startBareServer(responseFile);
  running.push(bare);
  await runLoad({ url: `${bare.origin}/api/articles?limit=20`, seconds: 1 });
  // Each server's own CPU over its rounds, per request: the load generator shares the machine's
  // cores, and where it cannot keep the bare server busy the throughput ratio flatters the app
  // (decision 0895). Reported beside the budget's ratio, not judged.
  const cpuBefore = { app: cpuSeconds(large.child.pid!), bare: cpuSeconds(bare.child.pid!) };
  const ab = await alternate(4, { url: listUrl(large) }, { url: `${bare.origin}/api/articles?limit=20` });
  const listCpu = {
    appMicros: ((cpuSeconds(large.child.pid!) - cpuBefore.app) * 1e6) / ab.a.requests,
    bareMicros: ((cpuSeconds(bare.child.pid!) - cpuBefore.bare) * 1e6) / ab.b.requests,
  };
  await bare.stop();
  rss.push({ after: 'list A/B', ...large.rssMb() });
  log(
    `  ${fmt(ab.a.requestsPerSecond, 0)} vs ${fmt(ab.b.requestsPerSecond, 0)} req/s; median ratio ${fmt(ab.ratio * 100, 0)} %`,
  );
  log(
    `  server CPU per request: Inkwell ${fmt(listCpu.appMicros, 0)} µs, bare ${fmt(listCpu.bareMicros, 0)} µs; bare/Inkwell ${fmt((listCpu.bareMicros / listCpu.appMicros) * 100, 0)} % (reported)`,
  );
  rows.push({ name: 'GET /api/articles first page, Inkwell (A/B rounds)', result: ab.a });
  rows.push({ name: 'Same bytes from bare node:http (A/B rounds)', result: ab.b });
  budgets.push({
    name: 'List throughput vs bare node:http (median ratio of rounds)',
    value: `${fmt(ab.ratio * 100, 0)} %`,
    limit: '>= 50 %',
    pass: ab.ratio >= 0.5,
  });

  // The same A/B on PostgreSQL: reads are cached there too, checked against the read version row.
  // Reported, not judged: the Budgets' (docs/architecture.md) budget is the default database's, and PostgreSQL shares
  // this machine's cores with the server and the load generator.
  const postgres = await createBenchPostgres();
  let postgresRatio: number | undefined;
  if (!postgres) {
    log(
      'PostgreSQL list throughput: skipped (set BENCH_POSTGRES_URL or TEST_DATABASE_URL to a server the bench may create a database on).',
    );
  } else {
    try {
      log(
        `List throughput on PostgreSQL (${POSTGRES_ARTICLES.toLocaleString('en')} articles) vs bare node:http (A/B rounds)...`,
      );
      const pgDir = path.join(workDir, 'postgres');
      fs.mkdirSync(pgDir, { recursive: true });
      process.env.DATABASE_URL = postgres.url;
      try {
        await seedDatabase({ dataDir: pgDir, articles: POSTGRES_ARTICLES });
      } finally {
        delete process.env.DATABASE_URL;
      }
      const pgServer = await startAppServer(pgDir, { DATABASE_URL: postgres.url });
      running.push(pgServer);
      const pgResponse = path.join(workDir, 'pg-list-page-response.json');
      await saveResponse(listUrl(pgServer), pgResponse);
      const pgBare = await startBareServer(pgResponse);
      running.push(pgBare);
      await runLoad({ url: listUrl(pgServer), seconds: 1 });
      const pgAb = await alternate(4, { url: listUrl(pgServer) }, { url: `${pgBare.origin}/api/articles?limit=20` });
      await pgBare.stop();
      await pgServer.stop();
      postgresRatio = pgAb.ratio;
      log(
        `  ${fmt(pgAb.a.requestsPerSecond, 0)} vs ${fmt(pgAb.b.requestsPerSecond, 0)} req/s; median ratio ${fmt(pgAb.ratio * 100, 0)} %`,
      );
      rows.push({ name: 'GET /api/articles first page, Inkwell on PostgreSQL (A/B rounds)', result: pgAb.a });
      rows.push({ name: 'Same bytes from bare node:http (PostgreSQL A/B rounds)', result: pgAb.b });
    } finally {
      await postgres.drop();
    }
  }
  if (LIST_ONLY) {
    printRows(rows);
    printBudgets(budgets);
    if (postgresRatio !== undefined)
      log(`\nPostgreSQL list vs bare node:http: ${fmt(postgresRatio * 100, 0)} % (reported, not a budget)`);
    log(`\n--list-only: ${fmt((Date.now() - started) / 1000, 0)} s; no results file written.`);
    return budgets.every((budget) => budget.pass);
  }

  log('Search over 100,000 articles (one request at a time)...');
  const searched = await measureSearch(large.origin);
  rss.push({ after: 'search', ...large.rssMb() });
  log(
    `  typical mix p50 ${fmt(searched.typical.p50Ms)} ms, p95 ${fmt(searched.typical.p95Ms)} ms; a word in every article p95 ${fmt(searched.everyArticle.p95Ms)} ms (reported)`,
  );
  budgets.push({
    name: 'Search p95, 100,000 articles on SQLite (typical mix, one at a time)',
    value: `${fmt(searched.typical.p95Ms)} ms`,
    limit: '<= 50 ms',
    pass: searched.typical.p95Ms <= 50,
  });

  log('Other endpoints with 100,000 articles...');
  const author = seeds.large.authors[0]!;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const json = { 'content-type': 'application/json' };
  const refreshBody = `grant_type=refresh_token&refresh_token=${encodeURIComponent(author.refreshToken)}`;
  const refreshed = (await (
    await fetch(`${large.origin}/identity/v1/token`, { method: 'POST', headers: form, body: refreshBody })
  ).json()) as { id_token: string };
  const articleId = seeds.large.firstArticleId;
  const endpoints: Array<[string, LoadSpec]> = [
    ['GET /api/articles/:id', { url: `${large.origin}/api/articles/${articleId}` }],
    ['GET / (HTML shell)', { url: `${large.origin}/` }],
    ['GET /article/:id (HTML shell, existence check)', { url: `${large.origin}/article/${articleId}` }],
    [
      'POST /identity/v1/token (refresh)',
      { url: `${large.origin}/identity/v1/token`, method: 'POST', headers: form, body: refreshBody },
    ],
    [
      'POST /identity/v1/accounts:lookup',
      {
        url: `${large.origin}/identity/v1/accounts:lookup`,
        method: 'POST',
        headers: json,
        body: JSON.stringify({ idToken: refreshed.id_token }),
      },
    ],
  ];
  for (const [name, spec] of endpoints) {
    rows.push({ name, result: await runLoad({ seconds: ENDPOINT_SECONDS, ...spec }) });
    rss.push({ after: name, ...large.rssMb() });
  }

  log(
    `Article page with ${COMMENTS_ON_PAGE} comments vs the same page without (alternating rounds, 100-article site)...`,
  );
  const commented = await benchComments(small, path.join(workDir, 'small'), seeds.small);
  rows.push({
    name: `GET /article/:id with ${COMMENTS_ON_PAGE} comments (HTML, cached)`,
    result: commented.withComments,
  });
  rows.push({ name: 'GET /article/:id, same article without comments', result: commented.bare });
  budgets.push(...commentsBudgets(commented));

  log('Password hashing share of sign-in and sign-up (paired with argon2 and a bare round trip)...');
  // Each round times, back to back with one keep-alive node:http connection: a bare round trip
  // (GET /healthz), the bare argon2 call in this process, then the endpoint; so all three see the
  // same machine load. Medians are compared. The round trip is the same for every endpoint and
  // is not the server's sign-in work, so the budget judges the hash's share of endpoint − transport.
  const storedHash = await hashPassword(author.password);
  // Let the server finish what the load phases left behind (log blocks, garbage) before one-at-a-time rounds.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const client = keepAliveClient(large.origin);
  const timed = async (task: () => Promise<unknown>) => {
    const begun = performance.now();
    await task();
    return performance.now() - begun;
  };
  const emptyPairs = () => ({ transport: [] as number[], hash: [] as number[], endpoint: [] as number[] });
  const paired = { signIn: emptyPairs(), signUp: emptyPairs() };
  for (let i = 0; i < HASH_ROUNDS + HASH_WARMUP_ROUNDS; i++) {
    const keep = i >= HASH_WARMUP_ROUNDS;
    const signInRound = {
      transport: await client.timed('GET', '/healthz'),
      hash: await timed(() => verifyPassword(storedHash, author.password)),
      endpoint: await client.timed('POST', '/identity/v1/accounts:signInWithPassword', {
        email: author.email,
        password: author.password,
        returnSecureToken: true,
      }),
    };
    const signUpRound = {
      transport: await client.timed('GET', '/healthz'),
      hash: await timed(() => hashPassword('bench-pw-1')),
      endpoint: await client.timed('POST', '/identity/v1/accounts:signUp', {
        email: `bench-${Date.now()}-${i}@bench.example`,
        password: 'bench-pw-1',
        returnSecureToken: true,
      }),
    };
    if (!keep) continue;
    for (const [samples, round] of [
      [paired.signIn, signInRound],
      [paired.signUp, signUpRound],
    ] as const) {
      samples.transport.push(round.transport);
      samples.hash.push(round.hash);
      samples.endpoint.push(round.endpoint);
    }
  }
  client.close();
  const percentile = (values: number[], p: number) =>
    [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
  const latencyRow = (values: number[]): LoadResult => {
    const p50Ms = median(values);
    return {
      requestsPerSecond: 1000 / p50Ms,
      p50Ms,
      p99Ms: percentile(values, 0.99),
      requests: values.length,
      failures: 0,
    };
  };
  const hashing = (
    [
      ['Sign-in', 'POST accounts:signInWithPassword (1 client, paired with argon2 verify)', paired.signIn],
      ['Sign-up', 'POST accounts:signUp (1 client, paired with argon2 hash)', paired.signUp],
    ] as const
  ).map(([name, row, samples]) => {
    rows.push({ name: row, result: latencyRow(samples.endpoint) });
    rows.push({
      name: `GET /healthz paired with ${name.toLowerCase()} (same client: transport)`,
      result: latencyRow(samples.transport),
    });
    const endpointMs = median(samples.endpoint);
    const hashMs = median(samples.hash);
    const transportMs = median(samples.transport);
    const serverMs = endpointMs - transportMs;
    return {
      name,
      rounds: samples.endpoint.length,
      endpointMs,
      hashMs,
      transportMs,
      serverMs,
      serverRestMs: serverMs - hashMs,
      /** The budget's figure: the hash's share of the server's time (endpoint − transport). */
      serverShare: hashMs / serverMs,
      endToEndShare: hashMs / endpointMs,
    };
  });
  for (const item of hashing) {
    budgets.push({
      name:
        `${item.name} latency dominated by argon2: p50 ${fmt(item.endpointMs, 2)} ms = ` +
        `argon2 ${fmt(item.hashMs, 2)} + transport ${fmt(item.transportMs, 2)} + server rest ${fmt(item.serverRestMs, 2)}`,
      value: `${fmt(item.serverShare * 100, 0)} % of server time (${fmt(item.endToEndShare * 100, 0)} % end to end)`,
      limit: '>= 75 % of server time',
      pass: item.serverShare >= 0.75,
    });
  }
  rss.push({ after: 'sign-in and sign-up', ...large.rssMb() });

  const peakRss = large.peakRssMb();
  budgets.push({
    name: 'Server peak RSS (VmHWM) under all of the above, 100,000 articles',
    value: `${fmt(peakRss, 0)} MB`,
    limit: '<= 200 MB',
    pass: peakRss <= 200,
  });
  budgets.push({
    name: 'Seeding 100,000 articles',
    value: `${fmt(seeds.large.seconds)} s`,
    limit: '< 60 s',
    pass: seeds.large.seconds < 60,
  });
  const failures = rows.filter((row) => row.result.failures > 0);
  budgets.push({
    name: 'Every load response was 2xx',
    value: failures.length ? failures.map((row) => row.name).join('; ') : 'yes',
    limit: 'no failures',
    pass: failures.length === 0,
  });

  await small.stop();
  await large.stop();

  // Its own server, so the articles server's peak above is not mixed with image decoding.
  const uploads = await benchUploads(workDir, log);
  budgets.push({
    name: `Server peak + largest image worker's peak, 4 concurrent uploads: 12-MP photos (p50 ${fmt(uploads.concurrentMs.median, 0)} ms each; one alone ${fmt(uploads.singleMs.median, 0)} ms), worst-case PNGs`,
    value: `${fmt(uploads.photoMemory.serverPlusLargestWorkerMb, 0)} MB, ${fmt(uploads.worstCase.memory.serverPlusLargestWorkerMb, 0)} MB, noisy transparent ${fmt(uploads.noisyAlpha.memory.serverPlusLargestWorkerMb, 0)} MB (server alone ${fmt(uploads.photoMemory.serverPeakMb, 0)} MB)`,
    limit: `<= ${UPLOAD_RSS_BUDGET_MB} MB`,
    pass: uploadPeakMb(uploads) <= UPLOAD_RSS_BUDGET_MB,
  });

  // DESIGN.md §9.3: one send to 10,000 subscribers while readers open the home page.
  log('Newsletter: 10,000 subscribers, one send...');
  const newsletter = await benchNewsletter(workDir, log);
  budgets.push(
    {
      name: `Newsletter: ${NEWSLETTER_SUBSCRIBERS} messages delivered to a loopback SMTP server (${newsletter.delivered} arrived)`,
      value: `${fmt(newsletter.seconds, 1)} s`,
      limit: `<= ${NEWSLETTER_DELIVERY_BUDGET_S} s`,
      pass: newsletter.delivered >= NEWSLETTER_SUBSCRIBERS && newsletter.seconds <= NEWSLETTER_DELIVERY_BUDGET_S,
    },
    {
      name: `Newsletter: GET / while sending (${newsletter.homeRequests} requests, p50 ${fmt(newsletter.homeP50Ms, 1)} ms)`,
      value: `p95 ${fmt(newsletter.homeP95Ms, 1)} ms`,
      limit: `<= ${NEWSLETTER_HOME_P95_BUDGET_MS} ms`,
      pass: newsletter.homeP95Ms <= NEWSLETTER_HOME_P95_BUDGET_MS,
    },
    {
      name: 'Newsletter: server peak RSS during the send',
      value: `${fmt(newsletter.peakRssMb, 0)} MB`,
      limit: `<= ${NEWSLETTER_RSS_BUDGET_MB} MB`,
      pass: newsletter.peakRssMb <= NEWSLETTER_RSS_BUDGET_MB,
    },
  );

  // DESIGN.md §9.4: one publication to 1,000 followers on 50 servers; inbox POSTs answered at once.
  log('Federation: 1,000 followers on 50 servers, one publication...');
  const federation = await benchFederation(workDir, log);
  budgets.push(
    {
      name: `Federation: one publication to ${FEDERATION_SERVERS * FEDERATION_FOLLOWERS_PER_SERVER} followers on ${FEDERATION_SERVERS} loopback servers (${federation.reached} reached)`,
      value: `${fmt(federation.seconds, 1)} s`,
      limit: `<= ${FEDERATION_DELIVERY_BUDGET_S} s`,
      pass: federation.reached === FEDERATION_SERVERS && federation.seconds <= FEDERATION_DELIVERY_BUDGET_S,
    },
    {
      name: `Federation: signed inbox POST (p50 ${fmt(federation.inboxP50Ms, 1)} ms)`,
      value: `p95 ${fmt(federation.inboxP95Ms, 1)} ms`,
      limit: `<= ${FEDERATION_INBOX_P95_BUDGET_MS} ms`,
      pass: federation.inboxP95Ms <= FEDERATION_INBOX_P95_BUDGET_MS,
    },
  );

  printRows(rows);
  log('');
  log(`Server memory (100,000 articles): ${rss.map((r) => `${r.after} ${fmt(r.rssMb, 0)}`).join(', ')} MB RSS`);
  log('');
  for (const line of describeUploads(uploads)) log(line);
  printBudgets(budgets);

  const results = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version },
    seconds: (Date.now() - started) / 1000,
    seeding: { articles100Seconds: seeds.small.seconds, articles100000Seconds: seeds.large.seconds },
    endpoints: rows,
    listVsBare: { ratio: ab.ratio, postgresRatio, cpuMicrosPerRequest: listCpu },
    listLargeVsSmall: { firstPageRatio: first.ratio, deepPageRatio: deep.ratio },
    passwordHashing: hashing,
    peakRssMb: peakRss,
    rssByPhase: rss,
    uploads,
    comments: commented,
    newsletter,
    budgets,
  };
  fs.writeFileSync(path.join(projectRoot, 'bench/results.json'), JSON.stringify(results, null, 2) + '\n');
  log(`\nWrote bench/results.json (${fmt(results.seconds, 0)} s in all)`);
  return budgets.every((budget) => budget.pass);
}

try {
  const allPass = await main();
  process.exitCode = allPass ? 0 : 1;
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  for (const process_ of running) await process_.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
}
