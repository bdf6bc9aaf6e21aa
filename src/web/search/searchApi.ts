import type { SearchPage } from '../../shared/searchSchema.ts';
import { callApi } from '../api/callApi.ts';

/** GET /api/search: one page of results for `q`, after `cursor` (a nextCursor) when given. */
export function searchArticles(q: string, cursor: string | null): Promise<SearchPage> {
  const query = new URLSearchParams({ q });
  if (cursor) query.set('cursor', cursor);
  return callApi<SearchPage>('GET', `/search?${query}`);
}
