import { z } from 'zod';
import type { FieldError } from './fieldError.ts';
import { EXCERPT_MAX_LENGTH } from './markdown/markdownExcerpt.ts';
import { characterCount } from './moderation.ts';
import { TAG_NAME_MAX_LENGTH, TAGS_MAX, tagSlug } from './tags.ts';

/**
 * The article as the API sends it and the fields a person may set, shared by the server
 * (which enforces them) and the web app (which shows the same messages next to its fields).
 */

export const IMAGE_URL_MAX_LENGTH = 2048;
export const TITLE_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 20000;
/** An author's own excerpt: the one limit, the generated excerpt's (decision 0850). */
export { EXCERPT_MAX_LENGTH };

/** The fields of an article body; anything else in a body is an error. */
export const articleInputFields = [
  'image',
  'title',
  'description',
  'excerpt',
  'tags',
  'status',
  'publishAt',
  'newsletter',
] as const;

/**
 * Who may see an article (DESIGN.md §8.2): `published` is public; `draft` and `submitted` (a
 * draft waiting for an editor) and `hidden` (taken down by an editor) are seen only by their
 * author and editors.
 */
export const ARTICLE_STATUSES = ['published', 'draft', 'submitted', 'hidden', 'scheduled'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];
/**
 * The statuses a writer may ask for; `hidden` comes only from an editor's hide. `scheduled`
 * (with `publishAt`) is published by the server at that time (DESIGN.md §9.6).
 */
export const WRITABLE_ARTICLE_STATUSES = ['published', 'draft', 'submitted', 'scheduled'] as const;
export type WritableArticleStatus = (typeof WRITABLE_ARTICLE_STATUSES)[number];

/** A hide's reason: 1 to 500 characters after trimming. */
export { HIDE_REASON_MAX_LENGTH } from './moderation.ts';
export type ArticleInputField = (typeof articleInputFields)[number];

// Characters as a person counts them: an emoji is one, not two UTF-16 units.

// PostgreSQL text cannot hold NUL, and a lone UTF-16 surrogate has no UTF-8 form: neither
// could be stored and returned unchanged, so neither is accepted.
const isStorableText = (value: string) => !value.includes('\u0000') && value.isWellFormed();

const requiredText = (label: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`) });

/** Text of at most `max` characters (as `characterCount` counts them), trimmed, and storable. */
const boundedText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .refine(isStorableText, { error: `${label} contains a character that cannot be stored.`, abort: true })
    .refine((value) => characterCount(value) <= max, { error: `${label} must be at most ${max} characters.` });

function isWebAddress(value: string): boolean {
  // The URL parser silently drops tabs and newlines and accepts spaces in paths; an address
  // a person pastes has none of those, and leaving them in would hide what is really stored.
  if (/[\s\p{Cc}]/u.test(value)) return false;
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

export const articleInputSchema = z
  .strictObject(
    {
      // A draft needs only a title (DESIGN.md §9.6): an absent or empty cover or body is '' here,
      // and missingForPublication says what a published, submitted or scheduled one lacks.
      image: z
        .string({ error: 'Image URL must be text.' })
        .trim()
        .max(IMAGE_URL_MAX_LENGTH, { error: `Image URL must be at most ${IMAGE_URL_MAX_LENGTH} characters.` })
        .refine((value) => value === '' || isWebAddress(value), {
          error: 'Image URL must be an http:// or https:// address.',
          abort: true,
        })
        .default(''),
      title: requiredText('Title')
        .trim()
        .min(1, { error: 'Title is required.' })
        .refine(isStorableText, { error: 'Title contains a character that cannot be stored.', abort: true })
        .refine((value) => characterCount(value) <= TITLE_MAX_LENGTH, {
          error: `Title must be at most ${TITLE_MAX_LENGTH} characters.`,
        }),
      description: boundedText('Description', DESCRIPTION_MAX_LENGTH).default(''),
      /**
       * Optional: the author's own excerpt, shown on cards and as the meta description instead of
       * the one made from the text. A PUT without it keeps the article's; '' goes back to the made one.
       */
      excerpt: boundedText('Excerpt', EXCERPT_MAX_LENGTH).optional(),
      /** Optional: a PUT without it keeps the article's tags (DESIGN.md §8.5). */
      tags: z
        .array(
          z
            .string({ error: 'Each tag must be text.' })
            .trim()
            .min(1, { error: 'A tag cannot be empty.' })
            .refine(isStorableText, { error: 'A tag contains a character that cannot be stored.', abort: true })
            .refine((value) => characterCount(value) <= TAG_NAME_MAX_LENGTH, {
              error: `A tag must be at most ${TAG_NAME_MAX_LENGTH} characters.`,
              abort: true,
            })
            .refine((value) => tagSlug(value) !== '', { error: 'A tag needs at least one letter or digit.' }),
          { error: 'Tags must be a list of words.' },
        )
        .max(TAGS_MAX, { error: `An article can have at most ${TAGS_MAX} tags.` })
        // Tags with the same slug are one tag: the first spelling stays.
        .transform((tags) =>
          tags.filter((tag, index) => tags.findIndex((other) => tagSlug(other) === tagSlug(tag)) === index),
        )
        .optional(),
      /** Optional: the default on create depends on the role; a PUT without it keeps the status. */
      status: z
        .enum(WRITABLE_ARTICLE_STATUSES, { error: 'status must be draft, submitted, scheduled or published.' })
        .optional(),
      /** With `status: "scheduled"` only: when the server publishes it (ISO 8601, in the future). */
      publishAt: z.iso
        .datetime({ offset: true, error: 'publishAt must be an ISO 8601 date and time, such as 2026-12-24T09:00:00Z.' })
        .transform((value) => Date.parse(value))
        .optional(),
      /**
       * Optional: `false` sends no newsletter when this write is the article's first publication
       * (DESIGN.md §9.3); anything else lets it go to the subscribers. Not stored.
       */
      newsletter: z.boolean().optional(),
    },
    { error: 'The article must be an object with a title.' },
  )
  .superRefine((article, context) => {
    const scheduled = article.status === 'scheduled';
    if (scheduled !== (article.publishAt !== undefined))
      context.addIssue({
        code: 'custom',
        path: ['publishAt'],
        message: scheduled
          ? 'publishAt is required with status scheduled: say when to publish it.'
          : 'publishAt goes only with status scheduled.',
      });
  });

/**
 * What an article lacks to be published, submitted or scheduled (docs/product.md's required
 * fields); a draft needs only its title. Empty when nothing is missing.
 */
export function missingForPublication(article: { image: string; description: string }): FieldError[] {
  return [
    ...(article.image === '' ? [{ field: 'image', message: 'Image URL is required.' }] : []),
    ...(article.description === '' ? [{ field: 'description', message: 'Description is required.' }] : []),
  ];
}

/** A valid article body, trimmed: what is stored. */
export type ArticleInput = z.output<typeof articleInputSchema>;

export type ArticleInputResult = { success: true; data: ArticleInput } | { success: false; errors: FieldError[] };

/** Validates an article body; every problem comes back as a field and a sentence a person can read. */
export function parseArticleInput(body: unknown): ArticleInputResult {
  const result = articleInputSchema.safeParse(body);
  if (result.success) return { success: true, data: result.data };
  const errors: FieldError[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        errors.push({
          field: key,
          message: `${key} cannot be set: an article takes only image, title, description, excerpt, tags, status, publishAt and newsletter.`,
        });
      }
    } else {
      // A tag's problem is the tags field's (a form shows one message under the tag field).
      const field = issue.path[0] === 'tags' ? 'tags' : issue.path.map(String).join('.') || 'body';
      // One message per field is what a form can show.
      if (!errors.some((error) => error.field === field)) errors.push({ field, message: issue.message });
    }
  }
  return { success: false, errors };
}

/** An article as the API returns it. */
export const articleSchema = z.object({
  id: z.string(),
  image: z.string(),
  title: z.string(),
  /** Markdown (docs/product.md, Rules). */
  description: z.string(),
  /** The description's rendered text without markup, at most 300 characters: cards and summaries. */
  excerpt: z.string(),
  authorId: z.string(),
  /** The author's current display name; null when they have not set one. */
  authorName: z.string().nullable(),
  /** The author page's slug (`/author/{slug}`); null until the author has one (the uid URL redirects). */
  authorSlug: z.string().nullable(),
  /** The author's profile picture (absolute URL), or null. */
  authorPhotoUrl: z.string().nullable(),
  /** ISO 8601 UTC: when the article was first published (a draft's: when it was created). */
  date: z.iso.datetime(),
  /** Tag names in the order the author gave them (src/shared/tags.ts makes their slugs). */
  tags: z.array(z.string()),
  /** Only `published` articles reach anyone but their author and editors. */
  status: z.enum(ARTICLE_STATUSES),
  /** While scheduled (ISO 8601 UTC): when the server publishes it. */
  publishAt: z.iso.datetime().optional(),
  /** While hidden, for its author and editors: the editor's reason and when it was hidden. */
  moderation: z.object({ reason: z.string(), at: z.iso.datetime() }).optional(),
  /** Published comments (DESIGN.md §9.2) of a published article; absent when there are none. */
  commentCount: z.number().int().min(1).optional(),
});
export type Article = z.infer<typeof articleSchema>;

/**
 * One article as GET /api/articles/:id (and a create or update) returns it: with its body
 * rendered to safe HTML on the server (decision 0040). Lists leave the body out.
 */
export const articleDetailSchema = articleSchema.extend({
  descriptionHtml: z.string(),
  /** The author's own excerpt (what the editor edits), or null when `excerpt` is made from the text. */
  customExcerpt: z.string().nullable(),
});
export type ArticleDetail = z.infer<typeof articleDetailSchema>;

/** One page of GET /api/articles: pass nextCursor back as `cursor` for the next page; null on the last. */
export const articlePageSchema = z.object({
  articles: z.array(articleSchema),
  nextCursor: z.string().nullable(),
});
export type ArticlePage = z.infer<typeof articlePageSchema>;

export { ARTICLE_PAGE_DEFAULT_LIMIT, ARTICLE_PAGE_MAX_LIMIT } from './articlePaging.ts';
