import type { SearchPage, TagList } from '../../shared/searchSchema.ts';
import { callApi } from './callApi.ts';

/** GET /api/search: one page of results for `q`, after `cursor` (a nextCursor) when given. */
export function searchArticles(q: string, cursor: string | null): Promise<SearchPage> {
  const query = new URLSearchParams({ q });
  if (cursor) query.set('cursor', cursor);
  return callApi<SearchPage>('GET', `/search?${query}`);
}

/** GET /api/tags: the tags published articles carry (the editor's suggestions). */
export function listTags(): Promise<TagList> {
  return callApi<TagList>('GET', '/tags');
}
