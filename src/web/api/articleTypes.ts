// Type-only: the shapes come from the shared schema, but no zod code reaches the home page bundle.
import type {
  Article,
  ArticleDetail,
  ArticleInput,
  ArticlePage,
  ArticleStatus,
  WritableArticleStatus,
} from '../../shared/articleSchema.ts';

export type { Article, ArticleDetail, ArticleInput, ArticleStatus, WritableArticleStatus };
/** One page of the newest-first list; `nextCursor` is null on the last page. */
export type ArticlesPage = ArticlePage;
export type ArticleField = Exclude<keyof ArticleInput, 'status' | 'newsletter'>;
/** What the editor sends: the schema's input, `publishAt` as ISO 8601 (the server reads it). */
export type ArticleBody = Omit<ArticleInput, 'publishAt'> & { publishAt?: string };
