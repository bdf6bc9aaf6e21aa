import { z } from 'zod';
import { COMMENT_BODY_MAX_LENGTH, COMMENT_HIDE_REASON_MAX_LENGTH } from './comments.ts';
import { characterCount } from './moderation.ts';

/**
 * The comment request bodies (DESIGN.md §9.2) as the server parses them. Apart from
 * comments.ts so the web app's comment code carries no zod (its JIT probe is an eval the
 * page's Content-Security-Policy reports).
 */

// Characters as a person counts them: an emoji is one, not two UTF-16 units.
const bodyText = z
  .string({
    error: (issue) => (issue.input === undefined ? 'Write a comment first.' : 'A comment must be text.'),
  })
  .refine((value) => !value.includes('\u0000') && value.isWellFormed(), {
    error: 'The comment contains a character that cannot be stored.',
    abort: true,
  })
  .trim()
  .min(1, { error: 'Write a comment first.' })
  .refine((value) => characterCount(value) <= COMMENT_BODY_MAX_LENGTH, {
    error: `A comment has at most ${COMMENT_BODY_MAX_LENGTH.toLocaleString('en-US')} characters.`,
  });

export const newCommentBody = z.strictObject(
  {
    body: bodyText,
    parentId: z
      .string({ error: 'parentId must be a comment id.' })
      .max(100, 'parentId must be a comment id.')
      .optional(),
  },
  { error: 'The body must be an object with a body.' },
);

export const editCommentBody = z.strictObject({ body: bodyText }, { error: 'The body must be an object with a body.' });

export const hideCommentBody = z.strictObject(
  {
    reason: z
      .string({ error: 'reason is required: say why the comment is hidden.' })
      .trim()
      .min(1, { error: 'reason is required: say why the comment is hidden.' })
      .refine(
        (reason) =>
          characterCount(reason) <= COMMENT_HIDE_REASON_MAX_LENGTH &&
          reason.isWellFormed() &&
          !reason.includes('\u0000'),
        { error: `reason must be at most ${COMMENT_HIDE_REASON_MAX_LENGTH} characters of text.` },
      ),
  },
  { error: 'The body must be an object with a reason.' },
);
