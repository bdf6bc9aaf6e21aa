/** GET /api/search's limits (DESIGN.md §8.5), apart from its zod schemas so the top bar can use them. */
export const SEARCH_QUERY_MAX_LENGTH = 200;
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 50;
