import { keepAliveClient } from './keepAliveClient.ts';
import { rareWord } from './seed.ts';

/** What the search phase measured: one request at a time, so each time is one search's latency. */
export interface SearchLatency {
  /** The typical mix: rare words, two words, a phrase, an exclusion, a tag, an author. */
  typical: { p50Ms: number; p95Ms: number; requests: number };
  /** A word every seeded article has (100 % of the table matches and is ranked). */
  everyArticle: { p50Ms: number; p95Ms: number; requests: number };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const summary = (values: number[]) => ({
  p50Ms: percentile(values, 0.5),
  p95Ms: percentile(values, 0.95),
  requests: values.length,
});

/** Queries a reader might type against the seeded articles (bench/seed.ts), `rounds` times each. */
export function typicalQueries(round: number): string[] {
  const a = rareWord(round * 37 + 1);
  const b = rareWord(round * 37 + 2);
  return [
    a,
    `${a}s`,
    `${rareWord(round * 11)} ${rareWord(round * 77 + 3)}`,
    `"about ${a}"`,
    `${b} -${a}`,
    `travel ${a}`,
    `author ${b}`,
  ];
}

/** Times GET /api/search one request at a time over a keep-alive connection. */
export async function measureSearch(origin: string, rounds = 30): Promise<SearchLatency> {
  const client = keepAliveClient(origin);
  const url = (q: string) => `/api/search?q=${encodeURIComponent(q)}&limit=20`;
  try {
    // Warm-up: JIT, page cache.
    for (const q of typicalQueries(999)) await client.timed('GET', url(q));
    const typical: number[] = [];
    const everyArticle: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const q of typicalQueries(round)) typical.push(await client.timed('GET', url(q)));
      if (round % 3 === 0) everyArticle.push(await client.timed('GET', url(round % 2 ? 'harbour' : 'quiet river')));
    }
    return { typical: summary(typical), everyArticle: summary(everyArticle) };
  } finally {
    client.close();
  }
}
