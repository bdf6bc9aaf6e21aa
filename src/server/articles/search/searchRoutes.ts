import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  SEARCH_QUERY_MAX_LENGTH,
  type SearchPage,
} from '../../../shared/searchSchema.ts';
import { sendProblem } from '../../http/problem.ts';
import type { RateLimiter } from '../../rateLimit/rateLimiter.ts';
import { toArticleJson } from '../articleReads.ts';
import type { ArticlesRepository } from '../articlesRepository.ts';
import { searchIndex } from './searchIndex.ts';
import { includedWords, parseSearchQuery } from './searchQuery.ts';
import { searchSnippet } from './searchSnippet.ts';

/** Results past this many are not paged to: nobody reads them, and each page sorts all before it. */
export const SEARCH_MAX_OFFSET = 1000;
const WINDOW_MS = 60 * 1000;

export interface SearchRoutesDeps {
  repository: ArticlesRepository;
  database: Parameters<typeof searchIndex>[0];
  rateLimiter: RateLimiter;
  searchesPerMinute: number;
}

/** GET /api/search (registered with { prefix: '/api' }). */
export function searchRoutes(deps: SearchRoutesDeps): FastifyPluginAsync {
  const rule = { name: 'search:ip', limit: deps.searchesPerMinute, windowMs: WINDOW_MS };
  return async (app: FastifyInstance) => {
    app.get('/search', async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const text = typeof query.q === 'string' ? query.q.trim() : undefined;
      if (text === undefined || text === '') {
        return sendProblem(reply, 400, 'Say what to search for.', [{ field: 'q', message: 'q must be some text.' }]);
      }
      if ([...text].length > SEARCH_QUERY_MAX_LENGTH) {
        return sendProblem(reply, 400, 'The search text is too long.', [
          { field: 'q', message: `q must be at most ${SEARCH_QUERY_MAX_LENGTH} characters.` },
        ]);
      }
      const limit = parseWhole(query.limit, SEARCH_DEFAULT_LIMIT, 1, SEARCH_MAX_LIMIT);
      if (limit === undefined) {
        return sendProblem(reply, 400, 'The limit parameter is not valid.', [
          { field: 'limit', message: `limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}.` },
        ]);
      }
      const offset = parseWhole(query.cursor, 0, 1, SEARCH_MAX_OFFSET);
      if (offset === undefined) {
        return sendProblem(reply, 400, 'The cursor parameter is not valid.', [
          { field: 'cursor', message: 'cursor must be a nextCursor value from a previous page.' },
        ]);
      }
      const limited = await deps.rateLimiter.consume(rule, request.ip);
      if (!limited.allowed) {
        reply.header('retry-after', String(limited.retryAfterSeconds));
        return sendProblem(reply, 429, 'You have searched many times in a short time. Please wait and try again.');
      }

      const parsed = parseSearchQuery(text);
      const hits = await searchIndex(deps.database, parsed, limit + 1, offset);
      const pageHits = hits.slice(0, limit);
      const articles = await deps.repository.findMany(pageHits.map((hit) => hit.articleId));
      const byId = new Map(articles.map((article) => [article.id, article]));
      const words = includedWords(parsed);
      const page: SearchPage = {
        results: pageHits.flatMap((hit) => {
          const article = byId.get(hit.articleId);
          return article ? [{ article: toArticleJson(article), snippet: searchSnippet(hit.body, words) }] : [];
        }),
        nextCursor: hits.length > limit && offset + limit <= SEARCH_MAX_OFFSET ? String(offset + limit) : null,
      };
      return reply.header('cache-control', 'no-store').send(page);
    });
  };
}

/** A whole number from min to max given as digits; `fallback` when absent; undefined when invalid. */
function parseWhole(value: unknown, fallback: number, min: number, max: number): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^[0-9]{1,6}$/.test(value)) return undefined;
  const number = Number(value);
  return number >= min && number <= max ? number : undefined;
}
