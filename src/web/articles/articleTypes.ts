/**
 * An article as the API returns it (DESIGN.md §4). `date` is ISO 8601 UTC; `authorName` is
 * null when the author has no display name. Kept free of zod: the home page imports it.
 */
export interface Article {
  id: string;
  image: string;
  title: string;
  description: string;
  authorId: string;
  authorName: string | null;
  date: string;
}

/** One page of the newest-first list; `nextCursor` is null on the last page. */
export interface ArticlesPage {
  articles: Article[];
  nextCursor: string | null;
}

/** What a person types into the article form, and what create and update send. */
export interface ArticleInput {
  image: string;
  title: string;
  description: string;
}

export type ArticleField = keyof ArticleInput;
