// Paging of GET /api/articles. Kept apart from the zod schemas so the web app's home page can
// import it without bundling zod.

/** Articles per page when the request names no limit; the home list asks for exactly this. */
export const ARTICLE_PAGE_DEFAULT_LIMIT = 20;
/** The largest `limit` the API accepts. */
export const ARTICLE_PAGE_MAX_LIMIT = 100;
