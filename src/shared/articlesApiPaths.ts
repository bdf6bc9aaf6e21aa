// The articles API's read paths, relative to `/api`. One function per read, used by the web app's
// client and by the screen table's first data (the server's preload hint and the app's prefetch):
// a preloaded answer is reused by the browser only when the app asks for the same URL to the byte.

export interface ArticlesListQuery {
  /** Only this author's articles. */
  author?: string | undefined;
  /** Only articles with this tag (its slug). */
  tag?: string | undefined;
  limit?: number | undefined;
  cursor?: string | null | undefined;
  /** Not published ones (their author's and editors' only, with a token): DESIGN.md §8.2. */
  status?: 'published' | 'draft' | 'submitted' | 'hidden' | 'scheduled' | 'all' | undefined;
  /** Only articles whose title holds this text (editors: the `/admin` Posts list). */
  q?: string | undefined;
}

/** `GET /articles` with its query, its parameters always in this order. */
export function articlesListPath(query: ArticlesListQuery = {}): string {
  const parameters: Array<[string, string]> = [];
  if (query.author) parameters.push(['author', query.author]);
  if (query.tag) parameters.push(['tag', query.tag]);
  if (query.limit) parameters.push(['limit', String(query.limit)]);
  if (query.cursor) parameters.push(['cursor', query.cursor]);
  if (query.status) parameters.push(['status', query.status]);
  if (query.q) parameters.push(['q', query.q]);
  if (parameters.length === 0) return '/articles';
  return `/articles?${parameters.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}

/** `GET /articles/:id`. */
export const articlePath = (id: string) => `/articles/${encodeURIComponent(id)}`;
