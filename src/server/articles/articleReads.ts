import type { Article, ArticleDetail, ArticlePage } from '../../shared/articleSchema.ts';
import type { Database } from '../db/database.ts';
import { createStampedCache } from '../db/stampedCache.ts';
import { encodeArticleCursor, type ArticleCursor } from './articleCursor.ts';
import type { ArticleDetailRow, ArticleRow, ArticlesRepository } from './articlesRepository.ts';
import { toJsonResource, type JsonResource } from './cachedJson.ts';

export interface ArticleReads {
  /** The list page after `after` (newest first), serialised. */
  listPage(limit: number, after: ArticleCursor | undefined): Promise<JsonResource>;
  /** One article serialised, or null when there is none with this id. */
  article(id: string): Promise<JsonResource | null>;
}

export function toArticleJson(row: ArticleRow): Article {
  return {
    id: row.id,
    image: row.image,
    title: row.title,
    description: row.description,
    excerpt: row.excerpt,
    authorId: row.authorId,
    authorName: row.authorName,
    date: new Date(row.date).toISOString(),
  };
}

/** The article page's read: the article and its rendered body. */
export function toArticleDetailJson(row: ArticleDetailRow): ArticleDetail {
  return { ...toArticleJson(row), descriptionHtml: row.descriptionHtml };
}

/**
 * The public reads, serialised once and served from memory until the database changes
 * (any write anywhere empties the cache: see stampedCache.ts). Pages and articles are
 * the hot path of every visit; the cache turns them into one stamp query each.
 */
export function createArticleReads(repository: ArticlesRepository, database: Database): ArticleReads {
  const cache = createStampedCache<JsonResource | null>(database);
  return {
    async listPage(limit, after) {
      const key = `list:${limit}:${after ? encodeArticleCursor(after) : ''}`;
      const resource = await cache.get(key, async () => {
        const rows = await repository.listPage(limit, after);
        const pageRows = rows.slice(0, limit);
        const last = pageRows.at(-1);
        const page: ArticlePage = {
          articles: pageRows.map(toArticleJson),
          nextCursor: rows.length > limit && last ? encodeArticleCursor({ date: last.date, id: last.id }) : null,
        };
        return toJsonResource(page);
      });
      return resource!;
    },
    async article(id) {
      return cache.get(`article:${id}`, async () => {
        const row = await repository.find(id);
        return row ? toJsonResource(toArticleDetailJson(row)) : null;
      });
    },
  };
}
