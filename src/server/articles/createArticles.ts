import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { matchArticlePath, matchEditArticlePath } from '../../shared/routes.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { VerifiedUser } from '../identity/createIdentity.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import { ARTICLE_PAGE_DEFAULT_LIMIT } from '../../shared/articleSchema.ts';
import { isArticleId } from './articleId.ts';
import { createArticleReads } from './articleReads.ts';
import { createArticlesRepository, deleteArticlesByAuthor } from './articlesRepository.ts';
import { articlesRoutes, type CreateRateLimit } from './articlesRoutes.ts';

export interface Articles {
  /** Register with { prefix: '/api' }. */
  routes: FastifyPluginAsync;
  /** Removes an author's articles inside the transaction that deletes the user. */
  deleteByAuthor(authorId: string, trx: Transaction<DatabaseSchema>): Promise<void>;
  /** The API calls the home and article screens make first, for the shell to preload. */
  dataPreloads(pathname: string): string[];
  /** 404 for the screens of an article that does not exist; no opinion on other paths. */
  pageStatus(request: FastifyRequest, pathname: string): Promise<number | undefined>;
}

export interface ArticlesDeps {
  database: Database;
  /** identity.verifyIdToken: the one ID token check. */
  verifyIdToken: (idToken: string) => Promise<VerifiedUser>;
  rateLimiter: RateLimiter;
  config: Config;
}

const CREATE_WINDOW_MS = 10 * 60 * 1000;

export function createArticles(deps: ArticlesDeps): Articles {
  const repository = createArticlesRepository(deps.database.db);
  const reads = createArticleReads(repository, deps.database);
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

  return {
    routes: articlesRoutes({ repository, reads, verifyIdToken: deps.verifyIdToken, createRateLimit }),
    deleteByAuthor: (authorId, trx) => deleteArticlesByAuthor(trx, authorId),
    dataPreloads(pathname) {
      // Exactly the URLs the web app asks for (src/web/articles/articlePrefetch.ts).
      if (pathname === '/') return [`/api/articles?limit=${ARTICLE_PAGE_DEFAULT_LIMIT}`];
      const id = matchArticlePath(pathname);
      return id !== null && isArticleId(id) ? [`/api/articles/${id}`] : [];
    },
    async pageStatus(_request, pathname) {
      const id = matchArticlePath(pathname) ?? matchEditArticlePath(pathname);
      if (id === null) return undefined;
      return isArticleId(id) && (await reads.article(id)) !== null ? undefined : 404;
    },
  };
}
