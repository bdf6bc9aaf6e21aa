import { callApi } from './callApi.ts';
import type { TokenSource } from './articlesApi.ts';

/** One open report as GET /api/reports lists it (DESIGN.md §8.2). */
export interface ReportJson {
  id: string;
  /** A report of a comment names it (DESIGN.md §9.2); the article is the comment's. */
  targetType?: 'article' | 'comment';
  commentId?: string | null;
  articleId: string;
  /** Null once the article is no longer published (docs/decisions/0411). */
  articleTitle: string | null;
  reporterUid: string;
  reason: string;
  createdAt: string;
  status: string;
}

/** One row of the audit log (DESIGN.md §8.2); actorUid null: the operator's admin command. */
export interface AuditEntryJson {
  id: string;
  at: string;
  actorUid: string | null;
  action: string;
  targetType: string;
  targetId: string;
  detail: Record<string, unknown> | null;
}

export interface AuditPage {
  entries: AuditEntryJson[];
  nextCursor: string | null;
}

const articlePath = (id: string) => `/articles/${encodeURIComponent(id)}`;

/** The moderation calls of DESIGN.md §8.2 (editors', owners' and the report button's). */
export const moderationApi = {
  hide: (token: TokenSource, articleId: string, reason: string) =>
    callApi<unknown>('POST', `${articlePath(articleId)}/hide`, { token, body: { reason } }),
  restore: (token: TokenSource, articleId: string) =>
    callApi<unknown>('POST', `${articlePath(articleId)}/restore`, { token }),
  report: (token: TokenSource, articleId: string, reason: string) =>
    callApi<unknown>('POST', `${articlePath(articleId)}/reports`, { token, body: { reason } }),
  openReports: (token: TokenSource) => callApi<{ reports: ReportJson[] }>('GET', '/reports?status=open', { token }),
  resolveReport: (token: TokenSource, reportId: string, action: 'hide' | 'dismiss', note: string) =>
    callApi<unknown>('POST', `/reports/${encodeURIComponent(reportId)}/resolve`, {
      token,
      body: note ? { action, note } : { action },
    }),
  audit: (token: TokenSource, cursor: string | null) =>
    callApi<AuditPage>('GET', `/audit${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { token }),
};
