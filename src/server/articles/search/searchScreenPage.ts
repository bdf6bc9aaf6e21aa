import type { FastifyRequest } from 'fastify';
import { SEARCH_DEFAULT_LIMIT } from '../../../shared/searchSchema.ts';
import type { PageHead } from '../../web/webPlugin.ts';
import { parseWhole, SEARCH_MAX_OFFSET, searchText, type SearchPages } from './searchPage.ts';

/**
 * The search screen's page (`/search?q=&cursor=`, DESIGN.md §9.6): rendered by the server with its
 * results, so that it reads without script, as the API answers them (the same search and rate
 * limit). Each page is the asker's alone: made per request and kept by no cache, as the API's
 * answer is not, so made-up queries fill nothing. No text, or too long a text, is rendered as the
 * screen explains it, without a search; a cursor the site did not issue is a 400, as in the API.
 */
export function searchScreenPage(search: SearchPages) {
  return async (_: string, request: FastifyRequest): Promise<PageHead> => {
    const query = request.query as Record<string, unknown>;
    const offset = parseWhole(query.cursor, 0, 1, SEARCH_MAX_OFFSET);
    if (offset === undefined) return { status: 400 };
    const q = typeof query.q === 'string' ? query.q : '';
    const text = searchText(q);
    if (text === undefined) {
      return { private: true, screen: async () => ({ kind: 'search', q, page: { results: [], nextCursor: null } }) };
    }
    if ((await search.limited(request.ip)) !== undefined) return { status: 429 };
    const page = await search.page(text, SEARCH_DEFAULT_LIMIT, offset);
    return { private: true, screen: async () => ({ kind: 'search', q, page }) };
  };
}
