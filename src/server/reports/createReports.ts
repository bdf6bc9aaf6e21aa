import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { Caller } from '../http/callerAuth.ts';
import type { RateLimiter, RateLimitRule } from '../rateLimit/rateLimiter.ts';
import type {
  FindVisibleArticle,
  FindVisibleComment,
  HideArticle,
  HideComment,
  ReportEventRecorder,
} from './reportEvents.ts';
import { hidingReason, REPORTS_LIST_MAX, REPORTS_PER_DAY, type ReportStatus } from './reportRules.ts';
import { createReportsStore } from './reportsStore.ts';
import type { ReportRow } from './reportsTables.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const perPersonRule: RateLimitRule = { name: 'reports:create', limit: REPORTS_PER_DAY, windowMs: DAY_MS };

export type ReportOutcome =
  | { ok: true; report: ReportRow }
  | {
      ok: false;
      reason: 'article_not_found' | 'comment_not_found' | 'own_article' | 'already_reported' | 'rate_limited';
      retryAfterSeconds?: number;
    };

/** What a report is about: an article, or one comment (DESIGN.md §9.2). */
export type ReportTarget = { type: 'article'; articleId: string } | { type: 'comment'; commentId: string };

export type ResolveOutcome =
  | { ok: true; closed: ReportRow[] }
  | { ok: false; reason: 'not_found' | 'already_resolved' | 'article_not_found' | 'comment_not_found' | 'forbidden' };

export interface ReportsDeps {
  database: Database;
  rateLimiter: RateLimiter;
  clock?: (() => number) | undefined;
  findVisibleArticle: FindVisibleArticle;
  hideArticle: HideArticle;
  /** Comments: the comment as the caller may see it, and its hide (none until wired: no comment reports). */
  findVisibleComment?: FindVisibleComment | undefined;
  hideComment?: HideComment | undefined;
  recordEvent: ReportEventRecorder;
  /** Accounts' names as of now and their author pages' slugs (the authors feature); deleted ones left out. */
  nameAccounts?:
    ((uids: readonly string[]) => Promise<Map<string, { name: string | null; slug: string | null }>>) | undefined;
}

/** Reports of articles and their resolution (docs/product.md, Reports); who may is the routes' business. */
export function createReports(deps: ReportsDeps) {
  const { db } = deps.database;
  const now = deps.clock ?? Date.now;
  const store = createReportsStore(db);

  return {
    /** One report by `reporter`; counted against their 20 a day only when it is made. */
    async report(reporter: Caller, target: ReportTarget, reason: string): Promise<ReportOutcome> {
      let articleId: string;
      let commentId: string | null = null;
      if (target.type === 'comment') {
        const comment = await deps.findVisibleComment?.(reporter, target.commentId);
        if (!comment) return { ok: false, reason: 'comment_not_found' };
        articleId = comment.articleId;
        commentId = target.commentId;
      } else {
        articleId = target.articleId;
        const article = await deps.findVisibleArticle(reporter, articleId);
        if (!article) return { ok: false, reason: 'article_not_found' };
        // Reports are for other people's articles: the author edits or deletes their own (issue 35, finding 7).
        if (article.authorId === reporter.uid) return { ok: false, reason: 'own_article' };
      }
      // Counted up front, so that 20 at once cannot all pass; refunded when nothing is made.
      const limited = await deps.rateLimiter.consume(perPersonRule, reporter.uid);
      if (!limited.allowed) {
        return { ok: false, reason: 'rate_limited', retryAfterSeconds: limited.retryAfterSeconds };
      }
      const report: ReportRow = {
        id: randomBytes(12).toString('base64url'),
        article_id: articleId,
        reporter_uid: reporter.uid,
        reason,
        status: 'open',
        created_at: now(),
        resolved_at: null,
        resolver_uid: null,
        note: null,
        target_type: target.type,
        comment_id: commentId,
      };
      if (!(await store.insertIfNoneOpen(report))) {
        await deps.rateLimiter.refund(perPersonRule, reporter.uid);
        return { ok: false, reason: 'already_reported' };
      }
      return { ok: true, report };
    },

    /**
     * Reports with this status, oldest first, with their articles' titles (as `viewer` sees them)
     * and who reported (their name as of now, and their author page's slug).
     */
    async list(viewer: Caller, status: ReportStatus) {
      const rows = await store.list(status, REPORTS_LIST_MAX);
      const titles = new Map<string, string | null>();
      for (const articleId of new Set(rows.map((row) => row.article_id))) {
        titles.set(articleId, (await deps.findVisibleArticle(viewer, articleId))?.title ?? null);
      }
      const reporters = (await deps.nameAccounts?.(rows.map((row) => row.reporter_uid))) ?? new Map();
      return rows.map((row) => ({
        row,
        articleTitle: titles.get(row.article_id) ?? null,
        reporter: reporters.get(row.reporter_uid) ?? { name: null, slug: null },
      }));
    },

    /** What these reports are of (the audit log names a report by it); a deleted report is left out. */
    async targetsOf(ids: readonly string[]): Promise<Map<string, { articleId: string; commentId: string | null }>> {
      const rows = await store.findMany([...new Set(ids)]);
      return new Map(rows.map((row) => [row.id, { articleId: row.article_id, commentId: row.comment_id }]));
    },

    /**
     * `dismiss` closes this report; `hide` hides the article (with the note, else the report's
     * reason) and closes every open report of it: the article is gone from view for all of them.
     */
    async resolve(
      resolver: Caller,
      id: string,
      action: 'hide' | 'dismiss',
      note: string | undefined,
    ): Promise<ResolveOutcome> {
      const report = await store.find(id);
      if (!report) return { ok: false, reason: 'not_found' };
      if (report.status !== 'open') return { ok: false, reason: 'already_resolved' };
      if (action === 'hide' && report.comment_id !== null) {
        const hidden =
          (await deps.hideComment?.(resolver, report.comment_id, hidingReason(note, report.reason))) ?? 'not_found';
        if (hidden === 'not_found') return { ok: false, reason: 'comment_not_found' };
        if (hidden === 'forbidden') return { ok: false, reason: 'forbidden' };
      } else if (action === 'hide') {
        const hidden = await deps.hideArticle(resolver, report.article_id, hidingReason(note, report.reason));
        if (hidden === 'not_found') return { ok: false, reason: 'article_not_found' };
        if (hidden === 'forbidden') return { ok: false, reason: 'forbidden' };
      }
      const at = now();
      // The reports closed and their audit rows: together or not at all.
      const closed = await db.transaction().execute(async (trx) => {
        const rows = await store.close(
          trx,
          { id: report.id, articleId: report.article_id, commentId: report.comment_id },
          { status: action === 'hide' ? 'hidden' : 'dismissed', resolverUid: resolver.uid, note: note ?? null, at },
          action === 'hide',
        );
        for (const row of rows) {
          await deps.recordEvent(trx, {
            actorUid: resolver.uid,
            action: 'report.resolve',
            targetType: 'report',
            targetId: row.id,
            detail: {
              action,
              articleId: row.article_id,
              ...(row.comment_id !== null ? { commentId: row.comment_id } : {}),
              ...(note !== undefined ? { note } : {}),
            },
          });
        }
        return rows;
      });
      // Another editor resolved it between the look and the change.
      if (closed.length === 0) return { ok: false, reason: 'already_resolved' };
      return { ok: true, closed };
    },
  };
}

export type Reports = ReturnType<typeof createReports>;
