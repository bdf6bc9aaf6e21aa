import type { FastifyPluginAsync } from 'fastify';
import type { Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { Caller } from '../http/callerAuth.ts';
import { createArticleWrites, type MailAuthor, type ModerationEventRecorder } from './articleWrites.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import { ARTICLE_PAGE_DEFAULT_LIMIT } from '../../shared/articleSchema.ts';
import { isArticleId, isAuthorId } from './articleId.ts';
import { mayView } from './articleRules.ts';
import {
  attachCommentCounts,
  createArticleReads,
  toArticleDetailJson,
  toArticleJson,
  type ArticleReads,
  type CountComments,
} from './articleReads.ts';
import {
  createArticlesRepository,
  deleteArticlesByAuthor,
  type ArticleChangedListener,
  type ArticleWrittenListener,
  type FirstPublishedListener,
} from './articlesRepository.ts';
import { articlesRoutes, type CreateRateLimit } from './articlesRoutes.ts';
import { mostUsedTags, publishedTagName, publishedTagSlugs } from './articleTags.ts';
import { isTagSlug } from '../../shared/tags.ts';
import { searchPages } from './search/searchPage.ts';
import { searchRoutes } from './search/searchRoutes.ts';
import { searchScreenPage } from './search/searchScreenPage.ts';
import { tagsRoutes } from './tagsRoutes.ts';
import { articleCursorOf, decodeArticleCursor, encodeArticleCursor } from './articleCursor.ts';
import { imageOrigin } from './imageOrigin.ts';
import { startScheduledPublishing, type ScheduledPublishingDeps } from './scheduledPublishing.ts';
import type { ArticleDetail, ArticlePage, ArticleStatus } from '../../shared/articleSchema.ts';
import { keysetPage } from '../http/keysetPage.ts';
import type { ScreenPage } from '../web/webPlugin.ts';

export interface Articles {
  /** Register with { prefix: '/api' }. */
  routes: FastifyPluginAsync;
  /** The ids of an author's published articles, inside the transaction that deletes the user (before their deletion). */
  publishedIdsByAuthor(authorId: string, trx: Transaction<DatabaseSchema>): Promise<string[]>;
  /** Removes an author's articles inside the transaction that deletes the user. */
  deleteByAuthor(authorId: string, trx: Transaction<DatabaseSchema>): Promise<void>;
  /** Calls `listener` inside the transaction of every article created or changed through the API. */
  onWritten(listener: ArticleWrittenListener): void;
  /** 404 for the editor of an article that is not published (the tag page is publishing's, rendered). */
  screenPages: {
    /**
     * The editor of article `id` ('' a new one): there for a published article, and for one that
     * is not to its author and editors, by the viewer cookie (`viewer`, asked only then).
     */
    editor(id: string, viewer: () => Promise<Caller | null>): Promise<{ status: 404 } | undefined>;
    /** `/search?q=`, rendered with its results (searchScreenPage.ts). */
    search: ScreenPage;
  };
  /** Read-only access for features that publish articles elsewhere (page metadata, feeds, sitemaps). */
  reader: ArticleReader;
  /** How many published articles each of these accounts has (the members list); 0s are left out. */
  countByAuthors(uids: readonly string[]): Promise<Map<string, number>>;
  /**
   * Hides an article as `actor` (an editor) with the reason: what a report resolved with `hide`
   * does (DESIGN.md §8.2). The reason is the caller's, already checked.
   */
  hide(actor: Caller, id: string, reason: string): Promise<'hidden' | 'not_found' | 'forbidden'>;
  /** The article whatever its status, through the read cache (comments decide who sees it); undefined when there is none. */
  summary(id: string): Promise<{ id: string; title: string; authorId: string; status: ArticleStatus } | undefined>;
  /** These articles' titles as of now, whatever their status (the audit log's names); a deleted one is left out. */
  titlesOf(ids: readonly string[]): Promise<Map<string, string>>;
  /** Lists and articles carry their published comments' count from `count` (the comments feature). */
  onCountingComments(count: CountComments): void;
  /** Calls `listener` inside the transaction of an article's first publication (a newsletter send). */
  onFirstPublished(listener: FirstPublishedListener): void;
  /** Calls `listener` inside the transaction of every create, change and deletion, with the status before and after (federation's deliveries). */
  onChanged(listener: ArticleChangedListener): void;
  /** Publishes scheduled articles at their time while the server runs (every process); returns stop. */
  startScheduler(log: ScheduledPublishingDeps['log']): () => Promise<void>;
}

/** A link to one article: its id and creation time (ISO 8601). */
export interface ArticleLink {
  id: string;
  date: string;
}

export interface ArticleReader {
  /** One published article, or undefined for an unknown or malformed id or any other status. */
  find(id: string): Promise<ArticleDetail | undefined>;
  /** One article whatever its status when `viewer` may see it (its author, editors), else undefined. */
  findFor(id: string, viewer: Caller): Promise<ArticleDetail | undefined>;
  /** The newest `limit` articles with their rendered bodies, newest first. */
  newest(limit: number): Promise<ArticleDetail[]>;
  /** How many articles are published (NodeInfo, the fediverse outbox's size). */
  countPublished(): Promise<number>;
  /**
   * The first page of the home list, or of one author's list, as `GET /api/articles` answers it;
   * with `after` (a cursor, isCursor), the page that starts there.
   */
  firstPage(authorId?: string, after?: string): Promise<ArticlePage>;
  /** The page of one tag's published articles starting at `after` (a cursor, isCursor), or its first. */
  tagPage(slug: string, after?: string): Promise<ArticlePage>;
  /** A public answer made from articles, kept in the articles' read cache (see ArticleReads.cached). */
  cached: ArticleReads['cached'];
  /**
   * Up to `limit` links, newest first, after the position `after` (an opaque cursor; undefined
   * starts at the newest), and the cursor where the next ones start (null after the last).
   * Keyset paging: cheap however deep.
   */
  links(limit: number, after?: string): Promise<{ links: ArticleLink[]; nextCursor: string | null }>;
  /** The cursor after the first `count` articles following `after`, or null when no article follows them. */
  cursorAfter(count: number, after?: string): Promise<string | null>;
  /** True when `text` is a cursor this feature issued (anything else must not be passed as `after`). */
  isCursor(text: string): boolean;
  /** An account that may have written articles (whether or not it has), or undefined when there is none. */
  author(uid: string): Promise<{ id: string; name: string | null } | undefined>;
  /** Up to `limit` ids of accounts with articles, in id order, after `after`. */
  authorIds(limit: number, after?: string): Promise<string[]>;
  /** Up to `limit` slugs of tags on published articles, in slug order, after `after`. */
  tagSlugs(limit: number, after?: string): Promise<string[]>;
  /** A tag's name when a published article has it, else undefined. */
  tagName(slug: string): Promise<string | undefined>;
  /** The newest `limit` published articles with the tag, newest first. */
  newestWithTag(slug: string, limit: number): Promise<ArticleDetail[]>;
}

export interface ArticlesDeps {
  database: Database;
  rateLimiter: RateLimiter;
  config: Config;
  /** The audit log's `record` (hide, restore, deleting another person's article); none until wired. */
  recordAudit?: ModerationEventRecorder | undefined;
  /** Mails an account (the author told of a hide or of their draft published); none until wired. */
  mailAuthor?: MailAuthor | undefined;
  clock?: (() => number) | undefined;
}

const CREATE_WINDOW_MS = 10 * 60 * 1000;

export function createArticles(deps: ArticlesDeps): Articles {
  const writtenListeners: ArticleWrittenListener[] = [];
  const firstPublishedListeners: FirstPublishedListener[] = [];
  const changedListeners: ArticleChangedListener[] = [];
  const repository = createArticlesRepository(
    deps.database.db,
    writtenListeners,
    imageOrigin(deps.config.publicUrl),
    firstPublishedListeners,
    changedListeners,
  );
  let countComments: CountComments | undefined;
  const reads = createArticleReads(repository, deps.database, {
    cacheMaxBytes: deps.config.readCacheMaxBytes,
    countComments: () => countComments,
  });
  const writes = createArticleWrites({
    repository,
    recordAudit: deps.recordAudit,
    mailAuthor: deps.mailAuthor,
    site: {
      get title() {
        return deps.config.site.title;
      },
      publicUrl: deps.config.publicUrl,
    },
    ...(deps.clock ? { now: deps.clock } : {}),
  });
  const createRule = {
    name: 'articles:create',
    limit: deps.config.rateLimits.articleCreatePerUser,
    windowMs: CREATE_WINDOW_MS,
  };
  const createRateLimit: CreateRateLimit = {
    async check(uid) {
      const result = await deps.rateLimiter.consume(createRule, uid);
      return result.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: result.retryAfterSeconds };
    },
  };

  const search = searchPages({
    repository,
    database: deps.database.db,
    rateLimiter: deps.rateLimiter,
    searchesPerMinute: deps.config.rateLimits.searchPerIp,
  });

  return {
    routes: async (app) => {
      await app.register(articlesRoutes({ repository, reads, writes, createRateLimit }));
      await app.register(tagsRoutes({ reads, mostUsed: (limit) => mostUsedTags(deps.database.db, limit) }));
      await app.register(searchRoutes(search));
    },
    deleteByAuthor: (authorId, trx) => deleteArticlesByAuthor(trx, authorId),
    countByAuthors: (uids) => repository.countPublishedByAuthors(uids),
    async hide(actor, id, reason) {
      const outcome = isArticleId(id) ? await writes.hide(actor, id, reason) : 'not-found';
      if (outcome === 'done') return 'hidden';
      return outcome === 'not-found' ? 'not_found' : 'forbidden';
    },
    async summary(id) {
      const article = isArticleId(id) ? (await reads.article(id))?.article : undefined;
      return article && { id: article.id, title: article.title, authorId: article.authorId, status: article.status };
    },
    titlesOf: (ids) => repository.titlesOf([...new Set(ids)].filter(isArticleId)),
    onCountingComments: (count) => {
      countComments = count;
    },
    onWritten: (listener) => {
      writtenListeners.push(listener);
    },
    onFirstPublished: (listener) => {
      firstPublishedListeners.push(listener);
    },
    async publishedIdsByAuthor(authorId, trx) {
      const rows = await trx
        .selectFrom('articles')
        .select('id')
        .where('author_id', '=', authorId)
        .where('status', '=', 'published')
        .execute();
      return rows.map((row) => row.id);
    },
    onChanged: (listener) => {
      changedListeners.push(listener);
    },
    startScheduler: (log) =>
      startScheduledPublishing({
        publishDue: (now, limit) => repository.publishDue(now, limit),
        now: deps.clock ?? Date.now,
        log,
      }),
    screenPages: {
      search: searchScreenPage(search),
      // A new article's editor ('') is always there. A page load carries no token, only the
      // viewer cookie (decision 0862): an article that is not published is there for whoever may
      // view it, and for anyone else what an unknown id is.
      async editor(id, viewer) {
        if (id === '') return undefined;
        const article = isArticleId(id) ? (await reads.article(id))?.article : undefined;
        if (article?.status === 'published') return undefined;
        const caller = article ? await viewer() : null;
        return article && caller && mayView(caller, article) ? undefined : { status: 404 };
      },
    },
    reader: {
      async countPublished() {
        const row = await deps.database.db
          .selectFrom('articles')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('status', '=', 'published')
          .executeTakeFirst();
        return Number(row?.n ?? 0);
      },
      async find(id) {
        // Through the read cache, like the API: every article page's shell asks for this.
        const resource = isArticleId(id) ? await reads.article(id) : null;
        return resource?.article.status === 'published' ? resource.article : undefined;
      },
      async findFor(id, viewer) {
        const resource = isArticleId(id) ? await reads.article(id) : null;
        return resource && mayView(viewer, resource.article) ? resource.article : undefined;
      },
      newest: (limit) => reads.newest(limit),
      async firstPage(authorId, after) {
        const limit = ARTICLE_PAGE_DEFAULT_LIMIT;
        // `after` is a cursor this feature issued (isCursor): the page a Load more link leads to.
        const position = after === undefined ? undefined : decodeArticleCursor(after);
        const page = await keysetPage(
          limit,
          (rows) => repository.listPage(rows, position, authorId === undefined ? {} : { authorId }),
          articleCursorOf,
        );
        return {
          articles: await attachCommentCounts(page.rows.map(toArticleJson), countComments),
          nextCursor: page.nextCursor,
        };
      },
      async tagPage(slug, after) {
        const position = after === undefined ? undefined : decodeArticleCursor(after);
        const page = await keysetPage(
          ARTICLE_PAGE_DEFAULT_LIMIT,
          (rows) => repository.listPage(rows, position, { tagSlug: slug }),
          articleCursorOf,
        );
        return {
          articles: await attachCommentCounts(page.rows.map(toArticleJson), countComments),
          nextCursor: page.nextCursor,
        };
      },
      cached: (key, build) => reads.cached(key, build),
      async links(limit, after) {
        const position = after === undefined ? undefined : decodeArticleCursor(after);
        const page = await keysetPage(limit, (rows) => repository.listLinks(rows, position), articleCursorOf);
        return {
          links: page.rows.map((row) => ({ id: row.id, date: new Date(row.date).toISOString() })),
          nextCursor: page.nextCursor,
        };
      },
      async cursorAfter(count, after) {
        const key = await repository.keyAfterSkipping(
          count,
          after === undefined ? undefined : decodeArticleCursor(after),
        );
        return key ? encodeArticleCursor(key) : null;
      },
      isCursor: (text) => decodeArticleCursor(text) !== undefined,
      author: async (uid) => (isAuthorId(uid) ? repository.author(uid) : undefined),
      authorIds: (limit, after) => repository.authorIds(limit, after),
      tagSlugs: (limit, after) => publishedTagSlugs(deps.database.db, limit, after),
      tagName: async (slug) => (isTagSlug(slug) ? publishedTagName(deps.database.db, slug) : undefined),
      async newestWithTag(slug, limit) {
        const rows = await repository.newestWithBodies(limit, { tagSlug: slug });
        return rows.map(toArticleDetailJson);
      },
    },
  };
}
