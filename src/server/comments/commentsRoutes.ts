import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { commentTexts } from '../../shared/comments.ts';
import { editCommentBody, hideCommentBody, newCommentBody } from '../../shared/commentSchema.ts';
import { sendJsonResource, type JsonResource } from '../http/cachedResource.ts';
import { callerIfSignedIn, requires, sendNoEndpoint, signedIn as anyCaller } from '../http/apiScope.ts';
import { callerOf } from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import { queryValidation } from '../http/queryValidation.ts';
import { parseBody } from '../http/requestBody.ts';
import type { ChangeOutcome, Comments } from './createComments.ts';

const NO_ARTICLE = 'There is no article with this id.';
const NO_COMMENT = 'There is no comment with this id.';
const NOT_ALLOWED = 'Only the article’s author and editors can do this.';
const PENDING_MAX = 200;

const settingsBody = z.strictObject({
  commentsOnMyArticles: z.boolean({ error: 'Give true or false.' }).optional(),
  repliesToMyComments: z.boolean({ error: 'Give true or false.' }).optional(),
});

/**
 * The comments API (DESIGN.md §9.2), in the `/api` scope. Under COMMENTS=off every route
 * answers 404, as if it did not exist.
 */
export function commentsRoutes(deps: {
  comments: Comments;
  /** The first page as everyone sees it, as kept bytes (the read cache). */
  publicFirstPage(articleId: string): Promise<JsonResource | undefined>;
}): FastifyPluginAsync {
  const { comments } = deps;
  return async (app) => {
    const off = async (request: FastifyRequest, reply: FastifyReply) =>
      comments.mode === 'off' ? sendNoEndpoint(request, reply) : undefined;
    const signedIn = { onRequest: off, ...anyCaller };
    const sendChange = (reply: FastifyReply, outcome: ChangeOutcome, forbidden = NOT_ALLOWED) => {
      if (outcome.ok) return reply.header('cache-control', 'no-store').send(outcome.comment);
      if (outcome.reason === 'not_found') return sendProblem(reply, 404, NO_COMMENT);
      if (outcome.reason === 'forbidden') return sendProblem(reply, 403, forbidden);
      return sendProblem(reply, 409, 'This comment is not in a state for that.');
    };

    const listQuery = z.strictObject({
      cursor: z
        .string({ error: 'cursor must be a nextCursor this API gave.' })
        .refine((cursor) => comments.isCursor(cursor), { error: 'cursor must be a nextCursor this API gave.' })
        .optional(),
    });
    app.get<{ Params: { id: string } }>(
      '/articles/:id/comments',
      { onRequest: off, compress: false, preValidation: queryValidation(listQuery) },
      async (request, reply) => {
        const { cursor } = request.query as z.output<typeof listQuery>;
        const caller = await callerIfSignedIn(request, reply);
        if (caller === undefined) return reply;
        // Anyone's first page is the same bytes for everyone: from the read cache.
        if (caller === null && cursor === undefined) {
          const resource = await deps.publicFirstPage(request.params.id);
          if (resource) return sendJsonResource(request, reply, resource);
        }
        const page = await comments.list(caller, request.params.id, cursor);
        if (!page) return sendProblem(reply, 404, NO_ARTICLE);
        return reply.header('cache-control', 'private, no-store').send(page);
      },
    );

    app.post<{ Params: { id: string } }>('/articles/:id/comments', signedIn, async (request, reply) => {
      const body = parseBody(newCommentBody, request.body);
      if (!body.success) return sendProblem(reply, 400, 'The comment is not valid.', body.errors);
      const made = await comments.create(callerOf(request), request.params.id, body.data.body, body.data.parentId);
      if (made.ok) {
        return reply
          .code(201)
          .header('cache-control', 'no-store')
          .header('location', `/api/comments/${made.comment.id}`)
          .send(made.comment);
      }
      switch (made.reason) {
        case 'article_not_found':
          return sendProblem(reply, 404, NO_ARTICLE);
        case 'article_not_published':
          return sendProblem(reply, 409, 'Comments are only on published articles.');
        case 'parent_not_found':
          return sendProblem(reply, 404, 'There is no comment with this parentId.', [
            { field: 'parentId', message: 'There is no comment with this id.' },
          ]);
        case 'parent_elsewhere':
          return sendProblem(reply, 400, 'The comment is not valid.', [
            { field: 'parentId', message: 'That comment is under another article.' },
          ]);
        case 'unverified':
          return sendProblem(reply, 403, commentTexts.verifyRequired);
        case 'rate_limited':
          reply.header('retry-after', String(made.retryAfterSeconds ?? 60));
          return sendProblem(reply, 429, 'You have posted many comments in a short time. Please wait and try again.');
      }
    });

    app.put<{ Params: { id: string } }>('/comments/:id', signedIn, async (request, reply) => {
      const body = parseBody(editCommentBody, request.body);
      if (!body.success) return sendProblem(reply, 400, 'The comment is not valid.', body.errors);
      const outcome = await comments.edit(callerOf(request), request.params.id, body.data.body);
      return sendChange(reply, outcome, 'Only its writer can change a comment.');
    });

    app.delete<{ Params: { id: string } }>('/comments/:id', signedIn, async (request, reply) => {
      const outcome = await comments.remove(callerOf(request), request.params.id);
      if (outcome === 'not_found') return sendProblem(reply, 404, NO_COMMENT);
      if (outcome === 'forbidden')
        return sendProblem(reply, 403, 'Only its writer, the article’s author and editors can delete a comment.');
      return reply.code(204).send();
    });

    app.post<{ Params: { id: string } }>('/comments/:id/approve', signedIn, async (request, reply) =>
      sendChange(reply, await comments.approve(callerOf(request), request.params.id)),
    );
    app.post<{ Params: { id: string } }>('/comments/:id/restore', signedIn, async (request, reply) =>
      sendChange(reply, await comments.restore(callerOf(request), request.params.id)),
    );
    app.post<{ Params: { id: string } }>('/comments/:id/hide', signedIn, async (request, reply) => {
      const body = parseBody(hideCommentBody, request.body);
      if (!body.success) return sendProblem(reply, 400, 'The body must be an object with a reason.', body.errors);
      return sendChange(reply, await comments.hide(callerOf(request), request.params.id, body.data.reason));
    });

    // The pending queue (/admin, Comments): editors.
    app.get('/comments/pending', { onRequest: off, ...requires('comment:moderate') }, async (_request, reply) => {
      return reply.header('cache-control', 'no-store').send({ comments: await comments.pendingQueue(PENDING_MAX) });
    });

    // The profile's two switches.
    app.get('/comments/notifications', signedIn, async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await comments.settings(callerOf(request).uid)),
    );
    app.put('/comments/notifications', signedIn, async (request, reply) => {
      const body = parseBody(settingsBody, request.body);
      if (!body.success) return sendProblem(reply, 400, 'The settings are not valid.', body.errors);
      const change = Object.fromEntries(Object.entries(body.data).filter(([, value]) => value !== undefined));
      return reply
        .header('cache-control', 'no-store')
        .send(await comments.changeSettings(callerOf(request).uid, change));
    });
  };
}
