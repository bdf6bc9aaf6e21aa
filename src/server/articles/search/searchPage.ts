import { SEARCH_QUERY_MAX_LENGTH, type SearchPage } from '../../../shared/searchSchema.ts';
import type { RateLimiter } from '../../rateLimit/rateLimiter.ts';
import { toArticleJson } from '../articleReads.ts';
import type { ArticlesRepository } from '../articlesRepository.ts';
import { searchIndex } from './searchIndex.ts';
import { includedWords, parseSearchQuery } from './searchQuery.ts';
import { searchSnippet } from './searchSnippet.ts';

/** Results past this many are not paged to: nobody reads them, and each page sorts all before it. */
export const SEARCH_MAX_OFFSET = 1000;
const WINDOW_MS = 60 * 1000;

export interface SearchDeps {
  repository: ArticlesRepository;
  database: Parameters<typeof searchIndex>[0];
  rateLimiter: RateLimiter;
  searchesPerMinute: number;
}

/**
 * One page of search results, as the API (searchRoutes.ts) and the server-rendered search screen
 * (searchScreenPage.ts) both answer it: one search, one rate limit for both ways in.
 */
export function searchPages(deps: SearchDeps) {
  const rule = { name: 'search:ip', limit: deps.searchesPerMinute, windowMs: WINDOW_MS };
  return {
    /** Consumes one search of this address's allowance: undefined when allowed, else the seconds to wait. */
    async limited(ip: string): Promise<number | undefined> {
      const result = await deps.rateLimiter.consume(rule, ip);
      return result.allowed ? undefined : result.retryAfterSeconds;
    },
    /** The results for `text` (trimmed, not empty, checked for length) from `offset` on. */
    async page(text: string, limit: number, offset: number): Promise<SearchPage> {
      const parsed = parseSearchQuery(text);
      const hits = await searchIndex(deps.database, parsed, limit + 1, offset);
      const pageHits = hits.slice(0, limit);
      const articles = await deps.repository.findMany(pageHits.map((hit) => hit.articleId));
      const byId = new Map(articles.map((article) => [article.id, article]));
      const words = includedWords(parsed);
      return {
        results: pageHits.flatMap((hit) => {
          const article = byId.get(hit.articleId);
          return article ? [{ article: toArticleJson(article), snippet: searchSnippet(hit.body, words) }] : [];
        }),
        nextCursor: hits.length > limit && offset + limit <= SEARCH_MAX_OFFSET ? String(offset + limit) : null,
      };
    },
  };
}

export type SearchPages = ReturnType<typeof searchPages>;

/** The search text of a `q` parameter: trimmed; undefined when absent, empty or longer than allowed. */
export function searchText(q: unknown): string | undefined {
  const text = typeof q === 'string' ? q.trim() : '';
  return text !== '' && [...text].length <= SEARCH_QUERY_MAX_LENGTH ? text : undefined;
}

/** A whole number from min to max given as digits; `fallback` when absent; undefined when invalid. */
export function parseWhole(value: unknown, fallback: number, min: number, max: number): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^[0-9]{1,6}$/.test(value)) return undefined;
  const number = Number(value);
  return number >= min && number <= max ? number : undefined;
}
