import { z } from 'zod';
import { ARTICLE_PAGE_DEFAULT_LIMIT, ARTICLE_PAGE_MAX_LIMIT } from '../../shared/articlePaging.ts';
import { decodeArticleCursor } from './articleCursor.ts';
import { isAuthorId } from './articleId.ts';
import { isTagSlug } from '../../shared/tags.ts';
import { ARTICLE_STATUSES } from '../../shared/articleSchema.ts';

/** The longest title search the staff list takes. */
export const TITLE_SEARCH_MAX_LENGTH = 100;

/**
 * `GET /api/articles?limit=&author=&tag=&status=&q=&cursor=`: each parameter's message is the client's answer
 * (http/queryValidation.ts). Unknown parameters are ignored, as the protocol's `?key=` is.
 */
export const listQuery = z.object({
  limit: z
    .string({ error: `limit must be a whole number from 1 to ${ARTICLE_PAGE_MAX_LIMIT}.` })
    .regex(/^[0-9]{1,3}$/, `limit must be a whole number from 1 to ${ARTICLE_PAGE_MAX_LIMIT}.`)
    .transform(Number)
    .refine(
      (limit) => limit >= 1 && limit <= ARTICLE_PAGE_MAX_LIMIT,
      `limit must be a whole number from 1 to ${ARTICLE_PAGE_MAX_LIMIT}.`,
    )
    .default(ARTICLE_PAGE_DEFAULT_LIMIT),
  author: z
    .string({ error: 'author must be one account id.' })
    .refine(isAuthorId, 'author must be one account id.')
    .optional(),
  tag: z
    .string({ error: 'tag must be one tag slug (lower case letters and digits joined by -).' })
    .refine(isTagSlug, 'tag must be one tag slug (lower case letters and digits joined by -).')
    .optional(),
  status: z
    .enum([...ARTICLE_STATUSES, 'all'], {
      error: 'status must be published, draft, submitted, hidden, scheduled or all.',
    })
    .optional(),
  // The staff list's title search (editors: articlesRoutes.ts); trimmed, and empty is no search.
  q: z
    .string({ error: `q must be one text of at most ${TITLE_SEARCH_MAX_LENGTH} characters.` })
    .trim()
    .refine(
      (q) => [...q].length <= TITLE_SEARCH_MAX_LENGTH && q.isWellFormed() && !q.includes('\u0000'),
      `q must be one text of at most ${TITLE_SEARCH_MAX_LENGTH} characters.`,
    )
    .transform((q) => (q === '' ? undefined : q))
    .optional(),
  cursor: z
    .string({ error: 'cursor must be a nextCursor value from a previous page.' })
    .transform((cursor, context) => {
      const decoded = decodeArticleCursor(cursor);
      if (decoded === undefined) {
        context.addIssue({ code: 'custom', message: 'cursor must be a nextCursor value from a previous page.' });
        return z.NEVER;
      }
      return decoded;
    })
    .optional(),
});

export type ListQuery = z.output<typeof listQuery>;
