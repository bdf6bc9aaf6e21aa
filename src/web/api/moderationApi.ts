import { callApi } from './callApi.ts';
import type { TokenSource } from './articlesApi.ts';

/**
 * One open report as GET /api/reports lists it (DESIGN.md §8.2, with who reported); the audit
 * log's entries (as GET /api/audit names them, decision 0821) and pages.
 */
import type {
  NamedAuditEntryJson as AuditEntryJson,
  AuditPageJson as AuditPage,
  ListedReportJson as ReportJson,
} from '../../shared/moderation.ts';
export type { AuditEntryJson, AuditPage, ReportJson };

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
