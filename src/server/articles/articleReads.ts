import type { Article, ArticleDetail, ArticlePage } from '../../shared/articleSchema.ts';
import type { Database } from '../db/database.ts';
import { createStampedCache } from '../db/stampedCache.ts';
import { encodeArticleCursor, type ArticleCursor } from './articleCursor.ts';
import type { ArticleDetailRow, ArticleRow, ArticlesRepository, ListFilter } from './articlesRepository.ts';
import { jsonResourceBytes, toJsonResource, type JsonResource } from './cachedJson.ts';

export interface ArticleReads {
  /** The list page after `after` (newest first), of every article or one author's, serialised. */
  listPage(limit: number, after: ArticleCursor | undefined, filter?: ListFilter): Promise<JsonResource>;
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
 *
 * Only pages the server handed out are kept: first pages, and pages at a cursor that a kept
 * page gave out as its nextCursor. A made-up cursor is answered from the database every time,
 * so anonymous requests cannot fill memory with pages nobody was given (DESIGN.md §6).
 */
export function createArticleReads(
  repository: ArticlesRepository,
  database: Database,
  options: { cacheMaxBytes: number },
): ArticleReads {
  const cache = createStampedCache<JsonResource | null>(database, {
    maxBytes: options.cacheMaxBytes,
    sizeOf: jsonResourceBytes,
  });
  const issued = createIssuedKeys(ISSUED_KEYS_KEPT);
  const listKey = (limit: number, cursor: string, filter: ListFilter) =>
    `list:${limit}:${filter.authorId ?? ''}:${cursor}`;
  return {
    async listPage(limit, after, filter = {}) {
      const cursor = after ? encodeArticleCursor(after) : '';
      const key = listKey(limit, cursor, filter);
      const resource = await cache.get(
        key,
        async () => {
          const rows = await repository.listPage(limit, after, filter);
          const pageRows = rows.slice(0, limit);
          const last = pageRows.at(-1);
          const nextCursor = rows.length > limit && last ? encodeArticleCursor({ date: last.date, id: last.id }) : null;
          if (nextCursor !== null) issued.add(listKey(limit, nextCursor, filter));
          const page: ArticlePage = { articles: pageRows.map(toArticleJson), nextCursor };
          return toJsonResource(page);
        },
        { admit: cursor === '' || issued.has(key) },
      );
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

/** How many handed-out cursors are remembered (each a key of ~100 bytes): the newest win. */
const ISSUED_KEYS_KEPT = 10_000;

/** A set of at most `max` strings that forgets the oldest first. */
function createIssuedKeys(max: number) {
  const keys = new Set<string>();
  return {
    add(key: string) {
      keys.delete(key);
      keys.add(key);
      if (keys.size > max) keys.delete(keys.values().next().value!);
    },
    has: (key: string) => keys.has(key),
  };
}
