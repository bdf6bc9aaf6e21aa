/** The articles feature's tables, as Kysely sees them. Only this feature queries them. */
export interface ArticlesTables {
  articles: ArticlesTable;
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
  /** Creation time, epoch milliseconds; never changes. */
  date: number;
}
