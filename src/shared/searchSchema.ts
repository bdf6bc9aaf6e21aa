import { z } from 'zod';
import { articleSchema } from './articleSchema.ts';

/** GET /api/search (DESIGN.md §8.5). */

export { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SEARCH_QUERY_MAX_LENGTH } from './searchLimits.ts';

export const searchResultSchema = z.object({
  article: articleSchema,
  /** At most 200 characters of the article's text; matches in <mark>, everything else HTML-escaped. */
  snippet: z.string(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchPageSchema = z.object({
  results: z.array(searchResultSchema),
  /** Pass back as `cursor` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
});
export type SearchPage = z.infer<typeof searchPageSchema>;

/** GET /api/tags. */
export const tagListSchema = z.object({
  tags: z.array(z.object({ name: z.string(), slug: z.string(), count: z.number() })),
});
export type TagList = z.infer<typeof tagListSchema>;
