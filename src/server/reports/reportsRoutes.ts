import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ReportJson } from '../../shared/moderation.ts';
import { requires, sendNoEndpoint, signedIn } from '../http/apiScope.ts';
import { callerOf } from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import { queryValidation } from '../http/queryValidation.ts';
import { parseBody } from '../http/requestBody.ts';
import { createReports, type ReportOutcome, type Reports, type ReportsDeps } from './createReports.ts';
import { listQuery, reportBody, resolveBody, type ListQuery } from './reportRules.ts';
import type { ReportRow } from './reportsTables.ts';

const NOT_ALLOWED = 'Your role does not allow this.';
const NO_ARTICLE = 'There is no article with this id.';
const NO_REPORT = 'There is no report with this id.';
const NO_COMMENT = 'There is no comment with this id.';
const iso = (ms: number) => new Date(ms).toISOString();

/** Who reported, for the Reports tab: their name as of now (null: none, or deleted) and author page's slug. */
interface Reporter {
  name: string | null;
  slug: string | null;
}

const reportJson = (row: ReportRow, articleTitle?: string | null, reporter?: Reporter): ReportJson => ({
  id: row.id,
  targetType: row.target_type,
  articleId: row.article_id,
  commentId: row.comment_id,
  ...(articleTitle !== undefined ? { articleTitle } : {}),
  reporterUid: row.reporter_uid,
  ...(reporter !== undefined ? { reporterName: reporter.name, reporterSlug: reporter.slug } : {}),
  reason: row.reason,
  createdAt: iso(row.created_at),
  status: row.status,
  ...(row.resolved_at !== null
    ? { resolvedAt: iso(row.resolved_at), resolverUid: row.resolver_uid, note: row.note }
    : {}),
});

/** The reports API (docs/product.md, Reports), in the `/api` scope. */
export function reportsRoutes(deps: {
  reports: Reports;
  /** COMMENTS is not off: comments may be reported. */
  commentsOn: boolean;
}): FastifyPluginAsync {
  const { reports } = deps;
  return async (app) => {
    // Any signed-in account, readers included.
    app.post<{ Params: { id: string } }>('/articles/:id/reports', signedIn, async (request, reply) => {
      const body = parseBody(reportBody, request.body);
      if (!body.success) return sendProblem(reply, 400, 'The report is not valid.', body.errors);
      const made = await reports.report(
        callerOf(request),
        { type: 'article', articleId: request.params.id },
        body.data.reason,
      );
      return sendMade(reply, made, 'article');
    });
    // A comment's report (DESIGN.md §9.2): the same queue, with targetType "comment".
    app.post<{ Params: { id: string } }>('/comments/:id/reports', signedIn, async (request, reply) => {
      if (!deps.commentsOn) return sendNoEndpoint(request, reply);
      const body = parseBody(reportBody, request.body);
      if (!body.success) return sendProblem(reply, 400, 'The report is not valid.', body.errors);
      const made = await reports.report(
        callerOf(request),
        { type: 'comment', commentId: request.params.id },
        body.data.reason,
      );
      return sendMade(reply, made, 'comment');
    });
    const sendMade = (reply: FastifyReply, made: ReportOutcome, what: 'article' | 'comment') => {
      if (made.ok) return reply.code(201).header('cache-control', 'no-store').send(reportJson(made.report));
      switch (made.reason) {
        case 'article_not_found':
          return sendProblem(reply, 404, NO_ARTICLE);
        case 'own_article':
          return sendProblem(reply, 403, 'You cannot report your own article: edit or delete it instead.');
        case 'comment_not_found':
          return sendProblem(reply, 404, NO_COMMENT);
        case 'already_reported':
          return sendProblem(reply, 409, `You have already reported this ${what}; editors will look at it.`);
        case 'rate_limited':
          reply.header('retry-after', String(made.retryAfterSeconds ?? 60));
          return sendProblem(
            reply,
            429,
            'You have made 20 reports today, the most in a day. Please try again tomorrow.',
          );
      }
    };

    const handlers = requires('reports:handle', NOT_ALLOWED);
    app.get('/reports', { ...handlers, preValidation: queryValidation(listQuery) }, async (request, reply) => {
      const caller = callerOf(request);
      const { status } = request.query as ListQuery;
      const listed = await reports.list(caller, status);
      return reply
        .header('cache-control', 'no-store')
        .send({ reports: listed.map(({ row, articleTitle, reporter }) => reportJson(row, articleTitle, reporter)) });
    });

    app.post<{ Params: { id: string } }>('/reports/:id/resolve', handlers, async (request, reply) => {
      const caller = callerOf(request);
      const body = parseBody(resolveBody, request.body);
      if (!body.success) return sendProblem(reply, 400, 'The resolution is not valid.', body.errors);
      const resolved = await reports.resolve(caller, request.params.id, body.data.action, body.data.note);
      if (resolved.ok) {
        const [report] = resolved.closed;
        return reply
          .header('cache-control', 'no-store')
          .send({ ...reportJson(report!), closed: resolved.closed.map((row) => row.id) });
      }
      switch (resolved.reason) {
        case 'not_found':
          return sendProblem(reply, 404, NO_REPORT);
        case 'article_not_found':
          return sendProblem(reply, 404, NO_ARTICLE);
        case 'comment_not_found':
          return sendProblem(reply, 404, NO_COMMENT);
        case 'already_resolved':
          return sendProblem(reply, 409, 'This report is already resolved.');
        case 'forbidden':
          return sendProblem(reply, 403, NOT_ALLOWED);
      }
    });
  };
}

/**
 * The reports feature: its API (the core made from `deps`, behind its routes, in the `/api`
 * scope) and what other features read of it (the audit log's names of reports).
 */
export function reportsFeature(deps: ReportsDeps): {
  routes: FastifyPluginAsync;
  targetsOf: Reports['targetsOf'];
} {
  const reports = createReports(deps);
  return {
    routes: reportsRoutes({ reports, commentsOn: deps.findVisibleComment !== undefined }),
    targetsOf: (ids) => reports.targetsOf(ids),
  };
}
