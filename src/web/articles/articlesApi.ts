import type { ArticleDetail, ArticleInput, ArticlesPage, ArticleStatus } from './articleTypes.ts';
import { ArticlesApiError, errorFromResponse } from './articlesApiError.ts';

/**
 * How long an articles call may take, answer included, before it counts as failed (status 0):
 * well inside the 30 s within which a stalled screen must say so (issue 15), and long enough
 * for a page of articles over a slow phone connection.
 */
export const API_TIMEOUT_MS = 20_000;

/** Supplies the signed-in user's ID token (useAuth().getIdToken), or null when signed out. */
export type TokenSource = () => Promise<string | null>;

export interface ListOptions {
  cursor?: string | null;
  limit?: number;
  /** Only this author's articles (docs/architecture.md, Articles API). */
  author?: string;
  /** Only articles with this tag (its slug). */
  tag?: string;
  /** Not published ones (their author's and editors' only, with a token): DESIGN.md §8.2. */
  status?: Exclude<ArticleStatus, 'published'> | 'all';
  token?: TokenSource;
}

/**
 * The typed client for the articles API (docs/architecture.md). Deliberately free of zod and other
 * libraries: the home page loads it, and the home page's JavaScript has a budget.
 */
export function createArticlesApi(baseUrl = '') {
  async function call<T>(method: string, path: string, init: { body?: unknown; token?: TokenSource } = {}) {
    const url = `${baseUrl}/api${path}`;
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (init.token) {
        const token = await init.token();
        if (!token) throw new ArticlesApiError('Not signed in', 401);
        headers.authorization = `Bearer ${token}`;
      }
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers,
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          // A stalled call ends (and the screen offers Retry) rather than loading forever.
          signal: AbortSignal.timeout(API_TIMEOUT_MS),
        });
      } catch (cause) {
        throw new ArticlesApiError(cause instanceof Error ? cause.message : 'Network failure', 0);
      }
      if (!response.ok) throw await errorFromResponse(response);
      if (response.status === 204) return undefined as T;
      return (await response.json()) as T;
    } catch (error) {
      // As in the original product, failing article data calls are logged to the console (screens also tell the reader).
      console.error(`Articles API: ${method} ${path} failed`, error);
      throw error instanceof ArticlesApiError ? error : new ArticlesApiError(String(error), 0);
    }
  }

  return {
    list(options: ListOptions = {}): Promise<ArticlesPage> {
      const query = new URLSearchParams();
      // In the order the server's preload hints spell them (createArticles.ts dataPreloads), so the
      // browser reuses the preloaded answer.
      if (options.author) query.set('author', options.author);
      if (options.tag) query.set('tag', options.tag);
      if (options.limit) query.set('limit', String(options.limit));
      if (options.cursor) query.set('cursor', options.cursor);
      if (options.status) query.set('status', options.status);
      const search = query.size > 0 ? `?${query}` : '';
      return call<ArticlesPage>('GET', `/articles${search}`, { token: options.token });
    },
    /** With a token, the author and editors also get an article that is not published. */
    get(id: string, token?: TokenSource): Promise<ArticleDetail> {
      return call<ArticleDetail>('GET', `/articles/${encodeURIComponent(id)}`, { token });
    },
    create(input: ArticleInput, token: TokenSource): Promise<ArticleDetail> {
      return call<ArticleDetail>('POST', '/articles', { body: input, token });
    },
    update(id: string, input: ArticleInput, token: TokenSource): Promise<ArticleDetail> {
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
