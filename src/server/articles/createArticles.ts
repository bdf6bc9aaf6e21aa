import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { isArticleId } from './articleId.ts';
import { createArticlesRepository, deleteArticlesByAuthor } from './articlesRepository.ts';
import { articlesRoutes, type CreateRateLimit } from './articlesRoutes.ts';
import type { VerifyIdToken } from './bearerAuth.ts';

/** The rate limiter's shape as this feature uses it. */
export interface RateLimiter {
  consume(
    rule: { name: string; limit: number; windowMs: number },
    key: string,
  ): Promise<{ allowed: boolean; remaining: number; retryAfterSeconds: number }>;
}

export interface Articles {
  /** Register with { prefix: '/api' }. */
  routes: FastifyPluginAsync;
  /** Removes an author's articles inside the transaction that deletes the user. */
  deleteByAuthor(authorId: string, trx: Transaction<DatabaseSchema>): Promise<void>;
  /** 404 for the screens of an article that does not exist; no opinion on other paths. */
  pageStatus(request: FastifyRequest, pathname: string): Promise<number | undefined>;
}

export interface ArticlesDeps {
  database: Database;
  verifyIdToken: VerifyIdToken;
  rateLimiter: RateLimiter;
  config: Config;
}

const ARTICLE_SCREEN = /^\/article(?:-update)?\/([^/]+)\/*$/;

export function createArticles(deps: ArticlesDeps): Articles {
  const repository = createArticlesRepository(deps.database.db);
  const createRule = { name: 'article-create', ...deps.config.articleCreateLimit };
  const createRateLimit: CreateRateLimit = {
    async check(uid) {
      const result = await deps.rateLimiter.consume(createRule, uid);
      return result.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: result.retryAfterSeconds };
    },
  };

  return {
    routes: articlesRoutes({ repository, verifyIdToken: deps.verifyIdToken, createRateLimit }),
    deleteByAuthor: (authorId, trx) => deleteArticlesByAuthor(trx, authorId),
    async pageStatus(_request, pathname) {
      const match = ARTICLE_SCREEN.exec(pathname);
      if (!match) return undefined;
      let id: string;
      try {
        id = decodeURIComponent(match[1]!);
      } catch {
        return 404;
      }
      return isArticleId(id) && (await repository.exists(id)) ? undefined : 404;
    },
  };
}
