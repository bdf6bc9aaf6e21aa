import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { parseArticleInput, type ArticleInput } from '../../shared/articleSchema.ts';
import {
  callerOf,
  registerCallerAuthentication,
  sendInvalidToken,
  type Caller,
  type VerifyIdToken,
} from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import { queryValidation } from '../http/queryValidation.ts';
import { toArticleDetailJson, type ArticleReads } from './articleReads.ts';
import { listQuery, type ListQuery } from './listQuery.ts';
import { isArticleId, newArticleId } from './articleId.ts';
import {
  AuthorGoneError,
  type ArticleDetailRow,
  type ArticlesRepository,
  type AuthorWriteOutcome,
  type ListFilter,
} from './articlesRepository.ts';
import { oneRequestFinisher, sendJsonResource } from '../http/cachedResource.ts';
import { can } from '../roles/permissions.ts';

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
    // with the cached resource (http/cachedResource.ts), and its three hooks per request were an eighth
    // of a cached list read's CPU (bench/README.md). A GET has no body to decompress.
    const cachedRead = { compress: false, decompress: false } as const;
    // Writes need a signed-in caller: checked before the handler runs (callerOf in it).
    const signedIn = { preHandler: registerCallerAuthentication(app, verifyIdToken) };

    app.get('/articles', { ...cachedRead, preValidation: queryValidation(listQuery) }, async (request, reply) => {
      const { limit, author, tag, cursor: after } = request.query as ListQuery;
      const filter: ListFilter = {
        ...(author === undefined ? {} : { authorId: author }),
        ...(tag === undefined ? {} : { tagSlug: tag }),
      };
      return sendJsonResource(request, reply, await reads.listPage(limit, after, filter, oneRequestFinisher(request)));
    });

    app.get<{ Params: { id: string } }>('/articles/:id', cachedRead, async (request, reply) => {
      const resource = isArticleId(request.params.id) ? await reads.article(request.params.id) : null;
      if (!resource) return sendProblem(reply, 404, NOT_FOUND);
      return sendJsonResource(request, reply, resource);
    });

    app.post('/articles', signedIn, async (request, reply) => {
      const caller = callerOf(request);
      if (!mayPublish(caller)) return sendProblem(reply, 403, NOT_PUBLISHER);
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

    app.put<{ Params: { id: string } }>('/articles/:id', signedIn, async (request, reply) => {
      const caller = callerOf(request);
      if (!mayPublish(caller)) return sendProblem(reply, 403, NOT_PUBLISHER);
      const input = readArticleInput(request, reply);
      if (!input) return reply;
      const id = request.params.id;
      const outcome = isArticleId(id) ? await repository.update(id, caller.uid, input) : 'not-found';
      if (outcome !== 'done') return sendOwnershipProblem(reply, outcome);
      return sendWritten(reply, await repository.find(id));
    });

    app.delete<{ Params: { id: string } }>('/articles/:id', signedIn, async (request, reply) => {
      const caller = callerOf(request);
      if (!mayPublish(caller)) return sendProblem(reply, 403, NOT_PUBLISHER);
      const id = request.params.id;
      const outcome = isArticleId(id) ? await repository.delete(id, caller.uid) : 'not-found';
      if (outcome !== 'done') return sendOwnershipProblem(reply, outcome);
      return reply.code(204).send();
    });
  };
}

const NOT_PUBLISHER = 'Your role does not allow writing articles.';

/**
 * Every article is published until drafts exist (docs/product.md, Roles): each write needs
 * the right to publish, which readers and contributors lack.
 */
function mayPublish(caller: Caller): boolean {
  return can(caller.role, 'article:write') && can(caller.role, 'article:publish');
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
