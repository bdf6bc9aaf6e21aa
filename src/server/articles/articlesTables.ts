import type { ArticleStatus } from '../../shared/articleSchema.ts';

/** The articles feature's tables, as Kysely sees them. Only this feature queries them. */
export interface ArticlesTables {
  articles: ArticlesTable;
  tags: TagsTable;
  article_tags: ArticleTagsTable;
}

export interface ArticlesTable {
  /** 20 random characters from [A-Za-z0-9]. */
  id: string;
  image: string;
  title: string;
  /** Markdown, as the author wrote it. */
  description: string;
  /** `description` rendered (src/shared/markdown), stored on every write: reads never render. */
  description_html: string;
  /** The rendered text without markup, at most 300 characters: cards, meta descriptions, feeds. */
  excerpt: string;
  /** users.id of the creator; the row must be removed (through the user-deleting hook) before the user. */
  author_id: string;
  /**
   * Epoch milliseconds: the first publication time once the article has been published (then
   * it never changes), its creation time before that (a draft). See `ever_published`.
   */
  date: number;
  /** Who may see it (DESIGN.md §8.2): only `published` articles are public. */
  status: ArticleStatus;
  /** 1 once `date` is the first publication time, else 0. */
  ever_published: number;
  /** The editor's reason for the last hide; shown to the author and editors while hidden. */
  moderation_reason: string | null;
  /** When the article was last hidden, epoch milliseconds. */
  moderated_at: number | null;
}

/** Tags (DESIGN.md §8.5): one row per slug, with the spelling first used. */
export interface TagsTable {
  slug: string;
  name: string;
}

/** An article's tags in the author's order; `date` is the article's (it never changes), for tag lists. */
export interface ArticleTagsTable {
  article_id: string;
  slug: string;
  position: number;
  date: number;
}
