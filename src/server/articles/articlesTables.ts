import type { ArticleStatus } from '../../shared/articleSchema.ts';

/** The statuses the column holds: `scheduled` is stored as a draft with a `publish_at` (decision 0851). */
export type StoredArticleStatus = Exclude<ArticleStatus, 'scheduled'>;

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
  /** Who may see it (DESIGN.md §8.2): only `published` articles are public. A scheduled one is a draft with `publish_at`. */
  status: StoredArticleStatus;
  /** 1 once `date` is the first publication time, else 0. */
  ever_published: number;
  /** The editor's reason for the last hide; shown to the author and editors while hidden. */
  moderation_reason: string | null;
  /** When the article was last hidden, epoch milliseconds. */
  moderated_at: number | null;
  /** The author's own excerpt, or null; `excerpt` holds it when set (decision 0850). */
  custom_excerpt: string | null;
  /**
   * When a scheduled article is published, epoch milliseconds; null when it is not scheduled.
   * A scheduled article is stored as a `draft` with this set: the API calls it `scheduled`.
   */
  publish_at: number | null;
  /** 1 unless the write that scheduled it said `newsletter: false`. */
  publish_newsletter: number;
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
