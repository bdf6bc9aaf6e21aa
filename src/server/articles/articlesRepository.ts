import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import { createArticleReadQueries } from './articleReadQueries.ts';
import type { ArticleChangedListener, ArticleWrittenListener, FirstPublishedListener } from './articleRows.ts';
import { createArticleWriteQueries } from './articleWriteQueries.ts';
import { unchangedImageOrigin, type ImageOrigin } from './imageOrigin.ts';

export * from './articleRows.ts';
export { listPageQuery, type ListFilter } from './articleReadQueries.ts';
export { deleteArticlesByAuthor } from './articleWriteQueries.ts';

/** The articles' storage: its reads (articleReadQueries.ts) and writes (articleWriteQueries.ts) together. */
export function createArticlesRepository(
  db: Kysely<DatabaseSchema>,
  onWritten: ArticleWrittenListener[] = [],
  images: ImageOrigin = unchangedImageOrigin,
  onFirstPublished: FirstPublishedListener[] = [],
  onChanged: ArticleChangedListener[] = [],
) {
  return {
    ...createArticleReadQueries(db, images),
    ...createArticleWriteQueries(db, onWritten, images, onFirstPublished, onChanged),
  };
}

export type ArticlesRepository = ReturnType<typeof createArticlesRepository>;
