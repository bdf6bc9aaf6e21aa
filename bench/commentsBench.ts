import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderCommentMarkdown } from '../src/server/comments/commentMarkdown.ts';
import type { CommentRow } from '../src/server/comments/commentsTables.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { ensureWebBuild } from '../src/server/web/webBuild.ts';
import { median, runLoad, type LoadResult } from './load.ts';
import { startAppServer, type RunningProcess } from './processes.ts';
import { seedDatabase, type SeedResult } from './seed.ts';

/**
 * DESIGN.md §9.2's budget: an article page with 300 comments, served from the read cache, at
 * >= 0.5x the rate of the same page without comments, its HTML <= 2x the bytes. Two articles
 * made the same (the second one's text copied onto the first), 300 comments on the first (100
 * threads of a comment and two replies, as people write them), then both pages loaded in
 * alternating rounds. Part of `npm run bench`; alone: `node bench/commentsBench.ts`.
 */
export const COMMENTS_ON_PAGE = 300;
const ROUNDS = 3;
const ROUND_SECONDS = 3;

const SENTENCES = [
  'This is exactly what I needed this week.',
  'I tried the second step and it worked, though it took *twice* as long.',
  'Could you say more about `the settings` you used?',
  'Thanks for writing it down so clearly.',
  'I disagree with the last paragraph: in my experience it is the other way round.',
  'See also https://example.com/notes for a longer take.',
];

/** `count` comments on `withComments`, and `bare` made a copy of it; both by the seed's authors. */
async function prepare(dataDir: string, seed: SeedResult, count: number) {
  const database = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'inkwell.db') });
  const { db } = database;
  try {
    const articles = await db.selectFrom('articles').select('id').orderBy('date', 'desc').limit(2).execute();
    const [withComments, bare] = [articles[0]!.id, articles[1]!.id];
    const source = await db.selectFrom('articles').selectAll().where('id', '=', bare).executeTakeFirstOrThrow();
    await db
      .updateTable('articles')
      .set({
        title: source.title,
        description: source.description,
        description_html: source.description_html,
        excerpt: source.excerpt,
        image: source.image,
        author_id: source.author_id,
      })
      .where('id', '=', withComments)
      .execute();
    const start = Date.now() - count * 60_000;
    const rows: CommentRow[] = [];
    let parent: string | null = null;
    for (let i = 0; i < count; i++) {
      const body = `${SENTENCES[i % SENTENCES.length]} ${SENTENCES[(i * 5 + 2) % SENTENCES.length]}`;
      const id = `bench${String(i).padStart(11, '0')}`;
      const top = i % 3 === 0;
      if (top) parent = null;
      rows.push({
        id,
        article_id: withComments,
        parent_id: top ? null : parent,
        author_uid: seed.authors[i % seed.authors.length]!.uid,
        remote_author_id: null,
        remote_author_name: null,
        remote_author_url: null,
        remote_author_photo_url: null,
        remote_object_id: null,
        body,
        body_html: renderCommentMarkdown(body),
        status: 'published',
        hidden_reason: null,
        created_at: start + i * 60_000,
        edited_at: null,
      });
      if (top) parent = id;
    }
    for (let i = 0; i < rows.length; i += 100)
      await db
        .insertInto('comments')
        .values(rows.slice(i, i + 100))
        .execute();
    return { withComments, bare };
  } finally {
    await database.close();
  }
}

export interface CommentsBenchResult {
  withComments: LoadResult;
  bare: LoadResult;
  rateRatio: number;
  bytesWith: number;
  bytesBare: number;
  bytesRatio: number;
}

/** Runs the comparison on a running server over `dataDir` (its seed's data). */
export async function benchComments(server: RunningProcess, dataDir: string, seed: SeedResult) {
  const { withComments, bare } = await prepare(dataDir, seed, COMMENTS_ON_PAGE);
  const url = (id: string) => `${server.origin}/article/${id}`;
  const bytes = async (id: string) =>
    (await (await fetch(url(id), { headers: { 'accept-encoding': 'identity' } })).arrayBuffer()).byteLength;
  // Warm: the first request makes each page and the cache keeps it.
  const [bytesWith, bytesBare] = [await bytes(withComments), await bytes(bare)];
  await runLoad({ url: url(withComments), seconds: 1 });
  await runLoad({ url: url(bare), seconds: 1 });
  const withs: LoadResult[] = [];
  const bares: LoadResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    withs.push(await runLoad({ url: url(withComments), seconds: ROUND_SECONDS }));
    bares.push(await runLoad({ url: url(bare), seconds: ROUND_SECONDS }));
  }
  const pick = (results: LoadResult[]): LoadResult => ({
    requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: median(results.map((r) => r.p99Ms)),
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    failures: results.reduce((sum, r) => sum + r.failures, 0),
  });
  return {
    withComments: pick(withs),
    bare: pick(bares),
    rateRatio: median(withs.map((r, i) => r.requestsPerSecond / bares[i]!.requestsPerSecond)),
    bytesWith,
    bytesBare,
    bytesRatio: bytesWith / bytesBare,
  } satisfies CommentsBenchResult;
}

/** The two budgets' lines. */
export function commentsBudgets(result: CommentsBenchResult) {
  return [
    {
      name: `Article page with ${COMMENTS_ON_PAGE} comments vs none, from cache (median ratio of rounds)`,
      value: `${(result.rateRatio * 100).toFixed(0)} %`,
      limit: '>= 50 %',
      pass: result.rateRatio >= 0.5,
    },
    {
      name: `Article page HTML with ${COMMENTS_ON_PAGE} comments vs none`,
      value: `${result.bytesWith} vs ${result.bytesBare} bytes (${result.bytesRatio.toFixed(2)}x)`,
      limit: '<= 2x',
      pass: result.bytesRatio <= 2,
    },
  ];
}

// Alone: a fresh 100-article site.
if (import.meta.main) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-comments-bench-'));
  let server: RunningProcess | undefined;
  try {
    await ensureWebBuild(console.log);
    const seed = await seedDatabase({ dataDir: workDir, articles: 100 });
    server = await startAppServer(workDir);
    const result = await benchComments(server, workDir, seed);
    console.log(JSON.stringify(result, null, 2));
    const budgets = commentsBudgets(result);
    for (const budget of budgets)
      console.log(`${budget.pass ? 'PASS' : 'FAIL'} ${budget.name}: ${budget.value} (${budget.limit})`);
    process.exitCode = budgets.every((budget) => budget.pass) ? 0 : 1;
  } finally {
    await server?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
