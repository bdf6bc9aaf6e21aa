import { ApiError } from './apiError.ts';
import { callApi, type TokenSource } from './callApi.ts';
import { articlePath, articlesListPath, type ArticlesListQuery } from '../../shared/articlesApiPaths.ts';
import type { ArticleBody, ArticleDetail, ArticlesPage } from './articleTypes.ts';

// Where these lived before the one `/api` caller (src/web/api/callApi.ts); kept for their importers.
export { API_TIMEOUT_MS, type TokenSource } from './callApi.ts';

export interface ListOptions extends ArticlesListQuery {
  /** The signed-in person's token: needed for lists of articles that are not published. */
  token?: TokenSource;
}

/**
 * The typed client for the articles API (docs/architecture.md). Deliberately free of zod and other
 * libraries: the home page loads it, and the home page's JavaScript has a budget.
 */
export function createArticlesApi(baseUrl = '') {
  async function call<T>(method: string, path: string, init: { body?: unknown; token?: TokenSource } = {}) {
    try {
      return await callApi<T>(method, path, { ...init, baseUrl });
    } catch (error) {
      // As in the original product, failing article data calls are logged to the console (screens also tell the reader).
      console.error(`Articles API: ${method} ${path} failed`, error);
      throw error instanceof ApiError ? error : new ApiError(String(error), 0);
    }
  }

  return {
    list(options: ListOptions = {}): Promise<ArticlesPage> {
      // The path the screen table's first data and the server's preload hints use too (routes.ts).
      const { token, ...query } = options;
      return call<ArticlesPage>('GET', articlesListPath(query), { token });
    },
    /** With a token, the author and editors also get an article that is not published. */
    get(id: string, token?: TokenSource): Promise<ArticleDetail> {
      return call<ArticleDetail>('GET', articlePath(id), { token });
    },
    /** A read by its path under /api (a screen's first data, routes.ts). */
    read<T>(path: string): Promise<T> {
      return call<T>('GET', path);
    },
    create(input: ArticleBody, token: TokenSource): Promise<ArticleDetail> {
      return call<ArticleDetail>('POST', '/articles', { body: input, token });
    },
    update(id: string, input: ArticleBody, token: TokenSource): Promise<ArticleDetail> {
      return call<ArticleDetail>('PUT', `/articles/${encodeURIComponent(id)}`, {
        body: input,
        token,
      });
    },
    delete(id: string, token: TokenSource): Promise<void> {
      return call<void>('DELETE', `/articles/${encodeURIComponent(id)}`, { token });
    },
  };
}

export type ArticlesApi = ReturnType<typeof createArticlesApi>;

/** The app's client: same origin as the page. */
export const articlesApi = createArticlesApi();
