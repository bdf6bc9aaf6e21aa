import type { Article, ArticleDetail, ArticlePage } from '../../shared/articleSchema.ts';
import type { Database } from '../db/database.ts';
import { createStampedCache } from '../db/stampedCache.ts';
import { createProcessingSlots } from '../http/processingSlots.ts';
import { articleCursorOf, encodeArticleCursor, type ArticleCursor } from './articleCursor.ts';
import type { ArticleDetailRow, ArticleRow, ArticlesRepository, ListFilter } from './articlesRepository.ts';
import { jsonResourceBytes, toJsonResource, toJsonResourceInSteps, type JsonResource } from '../http/cachedResource.ts';
import { keysetPage } from '../http/keysetPage.ts';

/** One article's bytes for the API, with the read model they were made from (page heads use it). */
export type ArticleResource = JsonResource & { article: ArticleDetail };

export interface ArticleReads {
  /** The list page after `after` (newest first), of every article or one author's, serialised. */
  listPage(
    limit: number,
    after: ArticleCursor | undefined,
    filter?: ListFilter,
    /**
     * What the sender does to a page made for this request alone (not kept) before the next
     * page is made: http/cachedResource.ts's `oneRequestFinisher` compresses it for the
     * request, so pages waiting to be sent hold a fraction of their memory. The read itself
     * knows nothing of encodings.
     */
    finishForOneRequest?: (page: JsonResource) => Promise<JsonResource>,
  ): Promise<JsonResource>;
  /**
   * One article serialised, whatever its status, or null when there is none with this id. Only
   * a published one may be sent to anyone (articleRules.ts mayView decides for the others).
   */
  article(id: string): Promise<ArticleResource | null>;
  /** The newest `limit` articles with their rendered bodies (what the feed is made from). */
  newest(limit: number): Promise<ArticleDetail[]>;
  /**
   * Any other public answer made from articles (the feed, sitemaps, HTML shells), kept in the
   * same cache and emptied by the same changes. `key` must name something the server chose to
   * publish, never a string a client made up (the cache is for bounded sets of answers).
   */
  cached(key: string, build: () => Promise<JsonResource>): Promise<JsonResource>;
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
    authorSlug: row.authorSlug,
    authorPhotoUrl: row.authorPhotoUrl,
    date: new Date(row.date).toISOString(),
    tags: row.tags,
    status: row.status,
    ...(row.publishAt === null ? {} : { publishAt: new Date(Number(row.publishAt)).toISOString() }),
    // Only hidden articles carry it, and they reach only their author and editors (articleRules.ts).
    ...(row.status === 'hidden' && row.moderationReason !== null && row.moderatedAt !== null
      ? { moderation: { reason: row.moderationReason, at: new Date(Number(row.moderatedAt)).toISOString() } }
      : {}),
  };
}

/** The article page's read: the article and its rendered body. */
export function toArticleDetailJson(row: ArticleDetailRow): ArticleDetail {
  return { ...toArticleJson(row), descriptionHtml: row.descriptionHtml, customExcerpt: row.customExcerpt };
}

/**
 * The public reads, serialised once and served from memory until the database changes
 * (any write anywhere empties the cache: see stampedCache.ts). Pages and articles are
 * the hot path of every visit; the cache turns them into one stamp query each.
 *
 * Only pages the server handed out are kept: first pages, and pages at a cursor that a kept
 * page gave out as its nextCursor. A made-up cursor is answered from the database every time,
 * so anonymous requests cannot fill memory with pages nobody was given (docs/architecture.md, Budgets).
 */
export function createArticleReads(
  repository: ArticlesRepository,
  database: Database,
  options: {
    cacheMaxBytes: number;
    /** Published comments per published article (the comments feature, wired in services.ts). */
    countComments?: () => CountComments | undefined;
  },
): ArticleReads {
  const withCommentCounts = <T extends Article>(articles: T[]) =>
    attachCommentCounts(articles, options.countComments?.());
  const cache = createStampedCache<CachedValue>(database, {
    maxBytes: options.cacheMaxBytes,
    sizeOf: jsonResourceBytes,
  });
  const issued = createIssuedKeys(ISSUED_KEYS_KEPT);
  // Making a page is synchronous work on the event loop (rows, JSON, hash: ~20 ms for 100 long
  // articles), and on SQLite every await in it resolves at once, so ten pages asked for together
  // ran as one block and held every other request (/healthz took 480 ms). One at a time, each
  // starting on a fresh turn of the loop, lets other requests in between.
  const slots = createProcessingSlots(BUILDS_AT_ONCE);
  const build = <T>(task: () => Promise<T>) =>
    slots.run(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return task();
    });
  const listKey = (limit: number, cursor: string, filter: ListFilter) =>
    `list:${limit}:${filter.authorId ?? ''}:${filter.tagSlug ?? ''}:${filter.status ?? 'published'}:${cursor}`;
  return {
    async listPage(limit, after, filter = {}, finishForOneRequest = async (page) => ({ ...page, sentOnce: true })) {
      const cursor = after ? encodeArticleCursor(after) : '';
      const key = listKey(limit, cursor, filter);
      const admit = cursor === '' || issued.has(key);
      const resource = await cache.get(
        key,
        () =>
          build(async () => {
            const { rows: pageRows, nextCursor } = await keysetPage(
              limit,
              (rows) => repository.listPage(rows, after, filter),
              articleCursorOf,
            );
            if (nextCursor !== null) issued.add(listKey(limit, nextCursor, filter));
            const page: ArticlePage = { articles: await withCommentCounts(pageRows.map(toArticleJson)), nextCursor };
            const made = await toJsonResourceInSteps('articles', page.articles, { nextCursor: page.nextCursor });
            // Not kept: finished by the sender inside this build's slot, one page at a time.
            return admit ? made : finishForOneRequest(made);
          }),
        { admit },
      );
      return resource as JsonResource;
    },
    async article(id) {
      const value = await cache.get(`article:${id}`, () =>
        build(async () => {
          const row = await repository.find(id);
          if (!row) return null;
          const [article] = await withCommentCounts([toArticleDetailJson(row)]);
          return { ...toJsonResource(article), article: article! };
        }),
      );
      return value as ArticleResource | null;
    },
    async newest(limit) {
      // Not kept itself: what is made from it (the feed) is.
      return (await repository.newestWithBodies(limit)).map(toArticleDetailJson);
    },
    async cached(key, make) {
      return (await cache.get(`other:${key}`, () => build(make))) as JsonResource;
    },
  };
}

/** The articles with their published comments' count (published ones with comments). */
export async function attachCommentCounts<T extends Article>(
  articles: T[],
  count: CountComments | undefined,
): Promise<T[]> {
  const published = articles.filter((article) => article.status === 'published').map((article) => article.id);
  if (!count || published.length === 0) return articles;
  const counts = await count(published);
  return articles.map((article) => {
    const commentCount = counts.get(article.id);
    return commentCount ? { ...article, commentCount } : article;
  });
}

const BUILDS_AT_ONCE = 1;
/** Published comments of each of these articles; 0s are left out. */
export type CountComments = (articleIds: readonly string[]) => Promise<Map<string, number>>;

type CachedValue = JsonResource | ArticleResource | null;

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
