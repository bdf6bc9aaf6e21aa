import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseArticleInput, type ArticleInput } from '../../shared/articleSchema.ts';
import type { FieldError } from '../../shared/fieldError.ts';
import { characterCount, HIDE_REASON_MAX_LENGTH } from '../../shared/moderation.ts';
import { callerIfSignedIn, requires, signedIn } from '../http/apiScope.ts';
import { callerOf, sendInvalidToken } from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import { queryValidation } from '../http/queryValidation.ts';
import { toArticleDetailJson, toArticleJson, type ArticleReads } from './articleReads.ts';
import { listQuery, type ListQuery } from './listQuery.ts';
import { isArticleId, newArticleId } from './articleId.ts';
import type { ArticleDetailRow, ArticlesRepository, ListFilter } from './articlesRepository.ts';
import { oneRequestFinisher, sendJsonResource } from '../http/cachedResource.ts';
import { articleCursorOf } from './articleCursor.ts';
import { mayList, mayView, type ModerationRefusal, type WriteRefusal } from './articleRules.ts';
import type { ArticleWrites } from './articleWrites.ts';
import { keysetPage } from '../http/keysetPage.ts';

export interface CreateRateLimit {
  /** Returns the seconds to wait when `uid` has created too many articles lately. */
  check(uid: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}

export interface ArticlesRoutesDeps {
  repository: ArticlesRepository;
  reads: ArticleReads;
  writes: ArticleWrites;
  createRateLimit: CreateRateLimit;
}

const NOT_FOUND = 'There is no article with this id.';

/** Each refusal's status and sentence (articleRules.ts decides which). */
const REFUSALS: Record<WriteRefusal | ModerationRefusal, { status: 403 | 409; detail: string }> = {
  'no-write-role': { status: 403, detail: 'Your role does not allow writing articles.' },
  'may-not-publish': {
    status: 403,
    detail: 'Your role does not allow publishing: save a draft or submit it for review.',
  },
  'not-author': { status: 403, detail: 'Only the author of this article can change or delete it.' },
  'published-by-editor': {
    status: 403,
    detail: 'An editor published this article: only an editor can change or delete it.',
  },
  'hidden-by-editor': {
    status: 403,
    detail: 'An editor hid this article: only an editor can change its status.',
  },
  'already-published': {
    status: 409,
    detail: 'This article is published: move it back to a draft before scheduling it.',
  },
  'not-editor': { status: 403, detail: 'Only editors can hide or restore articles.' },
  'not-hidden': { status: 409, detail: 'This article is not hidden.' },
};

const hideBody = z.strictObject(
  {
    reason: z
      .string({ error: 'reason is required: say why the article is hidden.' })
      .trim()
      .min(1, { error: 'reason is required: say why the article is hidden.' })
      .refine(
        (reason) =>
          characterCount(reason) <= HIDE_REASON_MAX_LENGTH && reason.isWellFormed() && !reason.includes('\u0000'),
        {
          error: `reason must be at most ${HIDE_REASON_MAX_LENGTH} characters of text.`,
        },
      ),
  },
  { error: 'The body must be an object with a reason.' },
);

/** The articles' routes of the `/api` scope (http/apiScope.ts). */
export function articlesRoutes(deps: ArticlesRoutesDeps): FastifyPluginAsync {
  const { repository, reads, writes, createRateLimit } = deps;

  return async (app: FastifyInstance) => {
    // Public reads leave the compression plugin out: their bodies are compressed once and kept
    // with the cached resource (http/cachedResource.ts), and its three hooks per request were an eighth
    // of a cached list read's CPU (bench/README.md). A GET has no body to decompress.
    const cachedRead = { compress: false, decompress: false } as const;
    // Readers may not write at all: refused before the body or the article is looked at.
    const writer = requires('article:write', REFUSALS['no-write-role'].detail);

    app.get('/articles', { ...cachedRead, preValidation: queryValidation(listQuery) }, async (request, reply) => {
      const { limit, author, tag, status = 'published', q, cursor: after } = request.query as ListQuery;
      const filter: ListFilter = {
        ...(author === undefined ? {} : { authorId: author }),
        ...(tag === undefined ? {} : { tagSlug: tag }),
      };
      // A title search is the staff list's (never cached: its keys are the client's own text).
      if (status === 'published' && q === undefined) {
        return sendJsonResource(
          request,
          reply,
          await reads.listPage(limit, after, filter, oneRequestFinisher(request)),
        );
      }
      // Drafts, the review queue, hidden articles: for their author and editors, never cached or shared.
      if (tag !== undefined)
        return sendProblem(
          reply,
          400,
          q === undefined
            ? 'status cannot be combined with tag: tag lists are public.'
            : 'q cannot be combined with tag: tag lists are public.',
        );
      if (request.headers.authorization === undefined) {
        reply.header('www-authenticate', 'Bearer');
        return sendProblem(reply, 401, 'Sign in first: send your ID token as Authorization: Bearer <token>.');
      }
      const caller = await callerIfSignedIn(request, reply);
      if (!caller) return reply;
      if (!mayList(caller, author, status)) {
        return sendProblem(
          reply,
          403,
          author !== undefined
            ? "Only the author and editors can read an author's drafts, submitted or hidden articles."
            : status === 'submitted' && q === undefined
              ? 'Only editors can read the review queue (status=submitted without author).'
              : "Only editors can list every author's articles.",
        );
      }
      const page = await keysetPage(
        limit,
        (rows) =>
          repository.listPage(rows, after, { ...filter, status, ...(q === undefined ? {} : { titleSearch: q }) }),
        articleCursorOf,
      );
      return reply
        .header('cache-control', 'private, no-store')
        .send({ articles: page.rows.map(toArticleJson), nextCursor: page.nextCursor });
    });

    app.get<{ Params: { id: string } }>('/articles/:id', cachedRead, async (request, reply) => {
      const resource = isArticleId(request.params.id) ? await reads.article(request.params.id) : null;
      if (!resource) return sendProblem(reply, 404, NOT_FOUND);
      if (resource.article.status === 'published') return sendJsonResource(request, reply, resource);
      // Anyone but its author and editors is told what they would be told of an unknown id.
      const caller = await callerIfSignedIn(request, reply);
      if (caller === undefined) return reply;
      if (!mayView(caller, resource.article)) return sendProblem(reply, 404, NOT_FOUND);
      return sendJsonResource(request, reply, resource, 'private, no-store');
    });

    app.post('/articles', writer, async (request, reply) => {
      const caller = callerOf(request);
      // Validated first: the limit is on articles created, and a rejected body creates none.
      const input = readArticleInput(request, reply);
      if (!input) return reply;
      const limited = await createRateLimit.check(caller.uid);
      if (!limited.allowed) {
        reply.header('retry-after', String(limited.retryAfterSeconds));
        return sendProblem(reply, 429, 'You have created many articles in a short time. Please wait and try again.');
      }
      const id = newArticleId();
      const outcome = await writes.create(caller, id, input);
      // The account was deleted after its token was checked: the token is no longer valid.
      if (outcome === 'author-gone') return sendInvalidToken(reply);
      if (typeof outcome === 'object') return sendInvalid(reply, outcome.invalid);
      if (outcome !== 'created') return sendRefusal(reply, outcome);
      return sendWritten(reply.code(201).header('location', `/api/articles/${id}`), await repository.find(id));
    });

    app.put<{ Params: { id: string } }>('/articles/:id', writer, async (request, reply) => {
      const caller = callerOf(request);
      const input = readArticleInput(request, reply);
      if (!input) return reply;
      const id = request.params.id;
      const outcome = isArticleId(id) ? await writes.edit(caller, id, input) : 'not-found';
      if (typeof outcome === 'object') return sendInvalid(reply, outcome.invalid);
      if (outcome !== 'done') return sendOutcome(reply, outcome);
      return sendWritten(reply, await repository.find(id));
    });

    app.delete<{ Params: { id: string } }>('/articles/:id', writer, async (request, reply) => {
      const id = request.params.id;
      const outcome = isArticleId(id) ? await writes.remove(callerOf(request), id) : 'not-found';
      if (outcome !== 'done') return sendOutcome(reply, outcome);
      return reply.code(204).send();
    });

    app.post<{ Params: { id: string } }>('/articles/:id/hide', signedIn, async (request, reply) => {
      const body = hideBody.safeParse(request.body);
      if (!body.success) {
        const message = body.error.issues[0]?.message ?? 'The body must be an object with a reason.';
        return sendProblem(reply, 400, message, [{ field: 'reason', message }]);
      }
      const id = request.params.id;
      const outcome = isArticleId(id) ? await writes.hide(callerOf(request), id, body.data.reason) : 'not-found';
      if (outcome !== 'done') return sendOutcome(reply, outcome);
      return sendWritten(reply, await repository.find(id));
    });

    app.post<{ Params: { id: string } }>('/articles/:id/restore', signedIn, async (request, reply) => {
      const id = request.params.id;
      const outcome = isArticleId(id) ? await writes.restore(callerOf(request), id) : 'not-found';
      if (outcome !== 'done') return sendOutcome(reply, outcome);
      return sendWritten(reply, await repository.find(id));
    });
  };
}

function sendRefusal(reply: FastifyReply, refusal: WriteRefusal | ModerationRefusal) {
  const { status, detail } = REFUSALS[refusal];
  return sendProblem(reply, status, detail);
}

function sendOutcome(reply: FastifyReply, outcome: WriteRefusal | ModerationRefusal | 'not-found') {
  return outcome === 'not-found' ? sendProblem(reply, 404, NOT_FOUND) : sendRefusal(reply, outcome);
}

function sendWritten(reply: FastifyReply, row: ArticleDetailRow | undefined) {
  // Deleted between our write and this read: it is gone, say so.
  if (!row) return sendProblem(reply.removeHeader('location'), 404, NOT_FOUND);
  return reply.header('cache-control', 'no-store').send(toArticleDetailJson(row));
}

function sendInvalid(reply: FastifyReply, errors: FieldError[]) {
  return sendProblem(reply, 400, 'The article is not valid.', errors);
}

function readArticleInput(request: FastifyRequest, reply: FastifyReply): ArticleInput | undefined {
  const result = parseArticleInput(request.body);
  if (result.success) return result.data;
  void sendInvalid(reply, result.errors);
  return undefined;
}
