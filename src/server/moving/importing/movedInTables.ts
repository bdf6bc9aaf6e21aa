/** The importers' record of what came from where (migration 0720). Only src/server/moving queries it. */
export interface MovedInTables {
  moved_in_articles: {
    source: string;
    source_id: string;
    slug: string | null;
    article_id: string;
    /** Epoch milliseconds. */
    imported_at: number;
  };
}
