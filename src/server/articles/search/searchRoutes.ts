import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SEARCH_QUERY_MAX_LENGTH } from '../../../shared/searchSchema.ts';
import { sendProblem } from '../../http/problem.ts';
import { parseWhole, SEARCH_MAX_OFFSET, type SearchPages } from './searchPage.ts';

/** GET /api/search (registered with { prefix: '/api' }). */
export function searchRoutes(search: SearchPages): FastifyPluginAsync {
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
      const retryAfterSeconds = await search.limited(request.ip);
      if (retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(retryAfterSeconds));
        return sendProblem(reply, 429, 'You have searched many times in a short time. Please wait and try again.');
      }
      return reply.header('cache-control', 'no-store').send(await search.page(text, limit, offset));
    });
  };
}
