import type { Article } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';

/** Articles per page of the profile's list. */
export const OWN_PAGE_SIZE = 20;

/** One page of `uid`'s articles, newest first (GET /api/articles?author=). */
export const ownArticlesPage = (uid: string, cursor: string | null) =>
  articlesApi.list({ author: uid, limit: OWN_PAGE_SIZE, cursor });

/** Pages counted at most: beyond 100 × 100 articles the count says "at least". */
const COUNT_MAX_PAGES = 100;

/**
 * How many articles `uid` has, paging through the author list as the server has it (the API has
 * no count). `atLeast` when the count stopped before the end.
 */
export async function countOwnArticles(uid: string): Promise<{ count: number; atLeast: boolean }> {
  let count = 0;
  let cursor: string | null = null;
  for (let page = 0; page < COUNT_MAX_PAGES; page++) {
    const answer: { articles: Article[]; nextCursor: string | null } = await articlesApi.list({
      author: uid,
      limit: 100,
      cursor,
    });
    count += answer.articles.length;
    cursor = answer.nextCursor;
    if (cursor === null) return { count, atLeast: false };
  }
  return { count, atLeast: true };
}
