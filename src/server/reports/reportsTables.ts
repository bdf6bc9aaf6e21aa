import type { Generated, Selectable } from 'kysely';
import type { ReportStatus } from './reportRules.ts';

/** The reports feature's table (migration 0411). Times are epoch milliseconds. */
export interface ReportsTables {
  reports: ReportsTable;
}

export interface ReportsTable {
  id: string;
  article_id: string;
  reporter_uid: string;
  reason: string;
  status: ReportStatus;
  created_at: number;
  resolved_at: number | null;
  /** The editor who resolved it; NULL while open (or once their account is gone). */
  resolver_uid: string | null;
  /** The editor's note when resolving, if any. */
  note: string | null;
  /** What is reported (migration 0600): the article, or one of its comments (`comment_id`). */
  target_type: Generated<'article' | 'comment'>;
  comment_id: string | null;
}

export type ReportRow = Selectable<ReportsTable>;
