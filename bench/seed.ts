import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { encodeArticleCursor } from '../src/server/articles/articleCursor.ts';
import { newArticleId } from '../src/server/articles/articleId.ts';
import { createArticlesRepository, type ArticlesRepository } from '../src/server/articles/articlesRepository.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { createIdentity } from '../src/server/identity/createIdentity.ts';
import { createMailer } from '../src/server/mail/mailer.ts';
import { createRateLimiter } from '../src/server/rateLimit/rateLimiter.ts';

export interface SeedOptions {
  dataDir: string;
  articles: number;
  authors?: number;
  /** Origin the article images point at (the bench serves /favicon.svg from the app itself). */
  imageOrigin?: string;
}

export interface SeedAuthor {
  email: string;
  password: string;
  uid: string;
  refreshToken: string;
}

/** What the bench needs to address the seeded data; written to DATA_DIR/seed.json. */
export interface SeedResult {
  articles: number;
  authors: SeedAuthor[];
  /** The newest article. */
  firstArticleId: string;
  /** A cursor 90 % down the list: the next page is a deep one. */
  deepCursor: string;
  /**
   * The cursor one page of 20 before deepCursor: asking for that page hands deepCursor out, as
   * a reader paging down does, so the server may keep the deep page (it keeps only pages at
   * cursors it handed out: decision 0101).
   */
  deepPreviousCursor: string;
  seconds: number;
}

const BATCH = 500;
const WORDS =
  'ink quiet river paper morning lamp garden letter window autumn harbour stone thread winter candle map'.split(' ');

// Words only a few articles use (about 100 each at 100,000 articles), so search has something
// to find besides the handful of words every article repeats.
const SYLLABLES = 'ka lo mi ren tas vo pel dri sun ber'.split(' ');
const RARE_WORDS = 2000;
/** The n-th rare word: three syllables and an ending, e.g. "kalomiia". */
export function rareWord(n: number): string {
  const m = n % RARE_WORDS;
  return `${SYLLABLES[m % 10]}${SYLLABLES[Math.floor(m / 10) % 10]}${SYLLABLES[Math.floor(m / 100) % 10]}${'ia on ex us'.split(' ')[Math.floor(m / 1000) % 4]}`;
}
const TOPICS = 'Travel Cooking Poetry History Science Gardening Music Sailing Books Weather'.split(' ');

function sentence(seed: number, words: number): string {
  let text = '';
  for (let i = 0; i < words; i++) text += (i ? ' ' : '') + WORDS[(seed * 7 + i * 13) % WORDS.length];
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

/**
 * Creates a database in `dataDir` (as the server would open it with DATA_DIR=dataDir, or
 * DATABASE_URL when set) with `authors` accounts made through the real sign-up endpoint
 * and `articles` articles inserted in batched transactions, one second apart, newest last.
 */
export async function seedDatabase(options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const config = loadConfig({ ...process.env, DATA_DIR: options.dataDir, RATE_LIMIT_SIGNUP_PER_IP: '1000000' });
  const database = openDatabase(config.database);
  await migrateToLatest(database);

  // Authors go through sign-up itself: hashing, session, tokens, exactly as a person's would.
  const app = Fastify({ logger: false });
  const mailer = createMailer({ smtpUrl: undefined, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  const identity = createIdentity({ config, database, mailer, rateLimiter: createRateLimiter(database) });
  await app.register(identity.routes, { prefix: '/identity' });
  const authors: SeedAuthor[] = [];
  const stamp = Date.now().toString(36);
  for (let i = 0; i < (options.authors ?? 4); i++) {
    const email = `author${i + 1}-${stamp}@bench.example`;
    const password = `bench-password-${i + 1}`;
    const response = await app.inject({
      method: 'POST',
      url: '/identity/v1/accounts:signUp',
      payload: { email, password, displayName: `Author ${i + 1}` },
    });
    if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
    const body = response.json<{ localId: string; refreshToken: string }>();
    authors.push({ email, password, uid: body.localId, refreshToken: body.refreshToken });
  }
  await app.close();

  const image = `${options.imageOrigin ?? 'http://localhost:3000'}/favicon.svg`;
  const newest = Date.now();
  const rows: Array<{ id: string; date: number }> = [];
  for (let start = 0; start < options.articles; start += BATCH) {
    const batch: Parameters<ArticlesRepository['insertBatch']>[0] = [];
    for (let i = start; i < Math.min(start + BATCH, options.articles); i++) {
      const id = newArticleId();
      // Index 0 is the newest: the list's order is the insertion order reversed.
      const date = newest - i * 1000;
      rows.push({ id, date });
      batch.push({
        id,
        date,
        image,
        title: `${sentence(i, 5)} No. ${options.articles - i}`,
        description: `${sentence(i, 40)}\n\n${sentence(i + 3, 60)} About ${rareWord(i)} and ${rareWord(i * 7 + 3)}.`,
        authorId: authors[i % authors.length]!.uid,
        tags: [TOPICS[i % TOPICS.length]!, TOPICS[(i * 3 + 1) % TOPICS.length]!],
      });
    }
    await database.db.transaction().execute((trx) => createArticlesRepository(trx).insertBatch(batch));
  }
  await database.close();

  const deepIndex = Math.min(Math.floor(rows.length * 0.9), rows.length - 1);
  const deep = rows[deepIndex]!;
  const deepPrevious = rows[Math.max(deepIndex - 20, 0)]!;
  const result: SeedResult = {
    articles: options.articles,
    authors,
    firstArticleId: rows[0]!.id,
    deepCursor: encodeArticleCursor(deep),
    deepPreviousCursor: encodeArticleCursor(deepPrevious),
    seconds: (performance.now() - started) / 1000,
  };
  fs.writeFileSync(path.join(options.dataDir, 'seed.json'), JSON.stringify(result, null, 2));
  return result;
}
