import type { SearchPage } from '../../shared/searchSchema.ts';
import { API_TIMEOUT_MS } from '../articles/articlesApi.ts';
import { errorFromResponse } from '../articles/articlesApiError.ts';

/** GET /api/search: one page of results for `q`, after `cursor` (a nextCursor) when given. */
export async function searchArticles(q: string, cursor: string | null): Promise<SearchPage> {
  const query = new URLSearchParams({ q });
  if (cursor) query.set('cursor', cursor);
  const response = await fetch(`/api/search?${query}`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(API_TIMEOUT_MS),
  });
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as SearchPage;
}
