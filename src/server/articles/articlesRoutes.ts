import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  ARTICLE_PAGE_DEFAULT_LIMIT,
  ARTICLE_PAGE_MAX_LIMIT,
  parseArticleInput,
  type ArticleInput,
} from '../../shared/articleSchema.ts';
import { sendProblem } from '../http/problem.ts';
import { decodeArticleCursor, type ArticleCursor } from './articleCursor.ts';
import { toArticleDetailJson, type ArticleReads } from './articleReads.ts';
import { isArticleId, isAuthorId, newArticleId } from './articleId.ts';
import {
  AuthorGoneError,
  type ArticleDetailRow,
  type ArticlesRepository,
  type AuthorWriteOutcome,
  type ListFilter,
} from './articlesRepository.ts';
import { authenticate, sendInvalidToken, type VerifyIdToken } from './bearerAuth.ts';
import { sendJsonResource } from './cachedJson.ts';
import { isTagSlug } from '../../shared/tags.ts';

export interface CreateRateLimit {
  /** Returns the seconds to wait when `uid` has created too many articles lately. */
  check(uid: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}

export interface ArticlesRoutesDeps {
  repository: ArticlesRepository;
  reads: ArticleReads;
  verifyIdToken: VerifyIdToken;
  createRateLimit: CreateRateLimit;
}

const NOT_FOUND = 'There is no article with this id.';
const NOT_AUTHOR = 'Only the author of this article can change or delete it.';

/** The `/api` routes: registered with { prefix: '/api' }. */
export function articlesRoutes(deps: ArticlesRoutesDeps): FastifyPluginAsync {
  const { repository, reads, verifyIdToken, createRateLimit } = deps;

  return async (app: FastifyInstance) => {
    // The API speaks JSON only: without this, Fastify's built-in text/plain parser (and any
    // form parser registered for /identity) would hand text to the handlers instead of a 415.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

    // Unknown API paths are API errors, never the web app's HTML shell. The catch-all routes
    // outrank the static files' GET /* wildcard, which would otherwise serve the shell.
    const notFound = (request: FastifyRequest, reply: FastifyReply) =>
      sendProblem(
        reply,
        404,
        `There is no API endpoint ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}.`,
      );
    app.setNotFoundHandler(notFound);
    app.all('/', notFound);
    app.all('/*', notFound);

    // Public reads leave the compression plugin out: their bodies are compressed once and kept
    // with the cached resource (cachedJson.ts), and its three hooks per request were an eighth
    // of a cached list read's CPU (bench/README.md). A GET has no body to decompress.
    const cachedRead = { compress: false, decompress: false } as const;

    app.get('/articles', cachedRead, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const limit = parseLimit(query.limit);
      if (limit === undefined) {
        return sendProblem(reply, 400, 'The limit parameter is not valid.', [
          { field: 'limit', message: `limit must be a whole number from 1 to ${ARTICLE_PAGE_MAX_LIMIT}.` },
        ]);
      }
      const filter: ListFilter = {};
      if (query.author !== undefined) {
        if (typeof query.author !== 'string' || !isAuthorId(query.author)) {
          return sendProblem(reply, 400, 'The author parameter is not valid.', [
            { field: 'author', message: 'author must be one account id.' },
          ]);
        }
        filter.authorId = query.author;
      }
      if (query.tag !== undefined) {
        if (typeof query.tag !== 'string' || !isTagSlug(query.tag)) {
          return sendProblem(reply, 400, 'The tag parameter is not valid.', [
            { field: 'tag', message: 'tag must be one tag slug (lower case letters and digits joined by -).' },
          ]);
        }
        filter.tagSlug = query.tag;
      }
      let after: ArticleCursor | undefined;
      if (query.cursor !== undefined) {
        after = typeof query.cursor === 'string' ? decodeArticleCursor(query.cursor) : undefined;
        if (after === undefined) {
          return sendProblem(reply, 400, 'The cursor parameter is not valid.', [
            { field: 'cursor', message: 'cursor must be a nextCursor value from a previous page.' },
          ]);
        }
      }
      return sendJsonResource(
        request,
        reply,
        await reads.listPage(limit, after, filter, request.headers['accept-encoding']),
      );
    });

    app.get<{ Params: { id: string } }>('/articles/:id', cachedRead, async (request, reply) => {
      const resource = isArticleId(request.params.id) ? await reads.article(request.params.id) : null;
      if (!resource) return sendProblem(reply, 404, NOT_FOUND);
      return sendJsonResource(request, reply, resource);
    });

    app.post('/articles', async (request, reply) => {
      const caller = await authenticate(request, reply, verifyIdToken);
      if (!caller) return reply;
      // Validated first: the limit is on articles created, and a rejected body creates none.
      const input = readArticleInput(request, reply);
      if (!input) return reply;
      const limited = await createRateLimit.check(caller.uid);
      if (!limited.allowed) {
        reply.header('retry-after', String(limited.retryAfterSeconds));
        return sendProblem(reply, 429, 'You have created many articles in a short time. Please wait and try again.');
      }
      const id = newArticleId();
      try {
        await repository.insert({ ...input, id, authorId: caller.uid, date: Date.now() });
      } catch (error) {
        if (!(error instanceof AuthorGoneError)) throw error;
        // The account was deleted after its token was checked: the token is no longer valid.
        return sendInvalidToken(reply);
      }
      return sendWritten(reply.code(201).header('location', `/api/articles/${id}`), await repository.find(id));
    });

    app.put<{ Params: { id: string } }>('/articles/:id', async (request, reply) => {
      const caller = await authenticate(request, reply, verifyIdToken);
      if (!caller) return reply;
      const input = readArticleInput(request, reply);
      if (!input) return reply;
      const id = request.params.id;
      const outcome = isArticleId(id) ? await repository.update(id, caller.uid, input) : 'not-found';
      if (outcome !== 'done') return sendOwnershipProblem(reply, outcome);
      return sendWritten(reply, await repository.find(id));
    });

    app.delete<{ Params: { id: string } }>('/articles/:id', async (request, reply) => {
      const caller = await authenticate(request, reply, verifyIdToken);
      if (!caller) return reply;
      const id = request.params.id;
      const outcome = isArticleId(id) ? await repository.delete(id, caller.uid) : 'not-found';
      if (outcome !== 'done') return sendOwnershipProblem(reply, outcome);
      return reply.code(204).send();
    });
  };
}

function sendOwnershipProblem(reply: FastifyReply, outcome: Exclude<AuthorWriteOutcome, 'done'>) {
  return outcome === 'not-found' ? sendProblem(reply, 404, NOT_FOUND) : sendProblem(reply, 403, NOT_AUTHOR);
}

function sendWritten(reply: FastifyReply, row: ArticleDetailRow | undefined) {
  // Deleted by its author between our write and this read: it is gone, say so.
  if (!row) return sendProblem(reply.removeHeader('location'), 404, NOT_FOUND);
  return reply.header('cache-control', 'no-store').send(toArticleDetailJson(row));
}

function readArticleInput(request: FastifyRequest, reply: FastifyReply): ArticleInput | undefined {
  const result = parseArticleInput(request.body);
  if (result.success) return result.data;
  void sendProblem(reply, 400, 'The article is not valid.', result.errors);
  return undefined;
}

function parseLimit(value: unknown): number | undefined {
  if (value === undefined) return ARTICLE_PAGE_DEFAULT_LIMIT;
  if (typeof value !== 'string' || !/^[0-9]{1,3}$/.test(value)) return undefined;
  const limit = Number(value);
  return limit >= 1 && limit <= ARTICLE_PAGE_MAX_LIMIT ? limit : undefined;
}
