// Type-only: the shapes come from the shared schema, but no zod code reaches the home page bundle.
import type { Article, ArticleDetail, ArticleInput, ArticlePage } from '../../shared/articleSchema.ts';

export type { Article, ArticleDetail, ArticleInput };
/** One page of the newest-first list; `nextCursor` is null on the last page. */
export type ArticlesPage = ArticlePage;
export type ArticleField = keyof ArticleInput;

/** Where an article stands (DESIGN.md §8.2): only `published` ones are seen by others. */
export type ArticleStatus = 'published' | 'draft' | 'submitted' | 'hidden';

/**
 * What §8.2 adds to an article's JSON: its status, and for its author and editors, why and when
 * it was hidden. Optional so that an answer without them (published) reads as published.
 */
export interface ModerationFields {
  status?: ArticleStatus;
  moderation?: { reason: string; at: string } | null;
}

/** A status a save may ask for (hiding has its own call). */
export type SaveStatus = Exclude<ArticleStatus, 'hidden'>;
