/** The articles feature's tables, as Kysely sees them. Only this feature queries them. */
export interface ArticlesTables {
  articles: ArticlesTable;
}

export interface ArticlesTable {
  /** 20 random characters from [A-Za-z0-9]. */
  id: string;
  image: string;
  title: string;
  description: string;
  /** users.id of the creator; the row must be removed (through the user-deleting hook) before the user. */
  author_id: string;
  /** Creation time, epoch milliseconds; never changes. */
  date: number;
}
