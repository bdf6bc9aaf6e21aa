import type { Kysely } from 'kysely';
import type { AuditEvent } from '../../shared/moderation.ts';
import type { Caller } from '../http/callerAuth.ts';
import type { DatabaseSchema } from '../db/schema.ts';

/** What the reports feature puts in the audit log: one row per report resolved. */
export type ReportEvent = AuditEvent<'report.resolve', 'report'>;

/**
 * Appends one event inside the caller's transaction. Structurally the audit feature's
 * RecordAudit, passed in by services.ts: reports does not import audit.
 */
export type ReportEventRecorder = (trx: Kysely<DatabaseSchema>, event: ReportEvent) => Promise<void>;

/** The articles feature's hiding (an editor's, with a reason), passed in by services.ts. */
export type HideArticle = (
  actor: Caller,
  articleId: string,
  reason: string,
) => Promise<'hidden' | 'not_found' | 'forbidden'>;

/**
 * The article as `caller` may see it (its title for the editors' queue); undefined when there
 * is none, or when it is not visible to them (a draft of someone else's, a hidden article).
 */
export type FindVisibleArticle = (
  caller: Caller,
  articleId: string,
) => Promise<{ title: string; authorId: string } | undefined>;

/** The comment as `caller` may see it (its article for the report); undefined when they may not. */
export type FindVisibleComment = (caller: Caller, commentId: string) => Promise<{ articleId: string } | undefined>;

/** The comments feature's hiding (an editor's, with a reason), passed in by services.ts. */
export type HideComment = (
  actor: Caller,
  commentId: string,
  reason: string,
) => Promise<'hidden' | 'not_found' | 'forbidden'>;
