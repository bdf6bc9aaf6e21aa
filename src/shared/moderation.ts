/**
 * The wire types and limits of moderation (reports, hides, the audit log: DESIGN.md §8.2, §9.2),
 * once for the server and the web app. No zod here: the article page's lazy chunk imports it.
 */

/** A hide's reason (an article's or a comment's, or a report's resolution note): 1 to 500 characters. */
export const HIDE_REASON_MAX_LENGTH = 500;
/** A report's reason: 1 to 1000 characters. */
export const REPORT_REASON_MAX_LENGTH = 1000;

/** Characters as a person counts them (code points, so an emoji is one): the one way these limits count. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

export const REPORT_STATUSES = ['open', 'hidden', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** One report as GET /api/reports and POST …/reports answer it. */
export interface ReportJson {
  id: string;
  targetType: 'article' | 'comment';
  articleId: string;
  commentId: string | null;
  /** In the editors' list only (null: the article is gone). */
  articleTitle?: string | null;
  reporterUid: string;
  /** In the editors' list only: the reporter's name as of now (null: none, or deleted; decision 0822). */
  reporterName?: string | null;
  /** In the editors' list only: the reporter's author page's slug (null: they have none). */
  reporterSlug?: string | null;
  reason: string;
  createdAt: string;
  status: ReportStatus;
  resolvedAt?: string;
  resolverUid?: string | null;
  note?: string | null;
}

/** What the audit log records (docs/product.md, Audit log). */
export type AuditAction =
  | 'member.role'
  | 'member.disable'
  | 'member.enable'
  | 'invitation.create'
  | 'invitation.use'
  | 'invitation.revoke'
  | 'article.hide'
  | 'article.restore'
  /** Another person's article only. */
  | 'article.delete'
  | 'report.resolve'
  | 'comment.hide'
  | 'comment.restore'
  | 'comment.approve'
  /** Another person's comment only. */
  | 'comment.delete'
  /** A fediverse domain or actor blocked, or unblocked (DESIGN.md §9.4). */
  | 'federation.block'
  | 'federation.unblock'
  /** The site settings changed by an owner (DESIGN.md §9.6): detail names the fields. */
  | 'settings.change';

export type AuditTargetType = 'user' | 'article' | 'invitation' | 'report' | 'comment' | 'fediverse' | 'site';

/**
 * One event for the audit log. Each feature records its own kinds (`AuditEvent<'article.hide' |
 * …, 'article'>`) through the recorder services.ts hands it: features do not import audit.
 */
export interface AuditEvent<A extends AuditAction = AuditAction, T extends AuditTargetType = AuditTargetType> {
  /** null: the operator's admin command / the system. */
  actorUid: string | null;
  action: A;
  targetType: T;
  targetId: string;
  /** e.g. {from:'author', to:'editor'}, {reason}, {action:'hide'}; {} when none was given. */
  detail?: Record<string, unknown>;
}

/** One entry as GET /api/audit and the admin command's JSON show it. */
export interface AuditEntryJson {
  id: string;
  at: string;
  actorUid: string | null;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  /** Always an object: {} when the event had no detail. */
  detail: Record<string, unknown>;
}

/**
 * What GET /api/audit shows beside an entry's ids (decision 0821): the actor's name and the
 * target's (an article's title, a member's name, a comment's excerpt; a report by what it
 * reported), as of now. `…Gone` says the account or the target has been deleted since; an
 * invitation is not named (null, not gone).
 */
export interface AuditEntryNames {
  actorName: string | null;
  actorGone: boolean;
  targetName: string | null;
  targetGone: boolean;
}

/** One entry as GET /api/audit answers it: with its names (the admin command's JSON has none). */
export type NamedAuditEntryJson = AuditEntryJson & AuditEntryNames;

/**
 * A report in the editors' list: with its article's title (null once the article is no longer
 * published) and who reported.
 */
export type ListedReportJson = ReportJson & {
  articleTitle: string | null;
  reporterName: string | null;
  reporterSlug: string | null;
};

export interface AuditPageJson {
  entries: NamedAuditEntryJson[];
  nextCursor: string | null;
}
