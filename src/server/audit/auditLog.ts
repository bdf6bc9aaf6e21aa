import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { AuditLogRow } from './auditTables.ts';

export type AuditAction =
  | 'comment.hide'
  | 'comment.restore'
  | 'comment.approve'
  | 'comment.delete'
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
  /** A fediverse domain or actor blocked, or unblocked (DESIGN.md §9.4). */
  | 'federation.block'
  | 'federation.unblock';

export interface AuditEvent {
  /** null: the operator's admin command / the system. */
  actorUid: string | null;
  action: AuditAction;
  targetType: 'user' | 'article' | 'invitation' | 'report' | 'comment' | 'fediverse';
  targetId: string;
  /** e.g. {from:'author', to:'editor'}, {reason}, {action:'hide'} */
  detail?: Record<string, unknown>;
}

/** Appends one row inside the caller's transaction (never outside it: no half-written record). */
export type RecordAudit = (trx: Kysely<DatabaseSchema>, event: AuditEvent) => Promise<void>;

/** One entry as the API and the admin command's JSON show it. */
export interface AuditEntryJson {
  id: string;
  at: string;
  actorUid: string | null;
  action: string;
  targetType: string;
  targetId: string;
  detail: Record<string, unknown>;
}

/** Where a newest-first page ends: the last entry's time and id. */
export interface AuditPosition {
  at: number;
  id: string;
}

/**
 * The audit log's storage. It has exactly two ways in: `record` inserts, `newest` reads. There
 * is deliberately no update and no delete here, nor anywhere else in the app
 * (auditLog.test.ts checks the sources): the log is append-only.
 */
export function createAuditLog(deps: { db: Kysely<DatabaseSchema>; now: () => number }) {
  const record: RecordAudit = async (trx, event) => {
    await trx
      .insertInto('audit_log')
      .values({
        id: randomBytes(12).toString('base64url'),
        at: deps.now(),
        actor_uid: event.actorUid,
        action: event.action,
        target_type: event.targetType,
        target_id: event.targetId,
        detail: JSON.stringify(event.detail ?? {}),
      })
      .execute();
  };

  /** Up to `limit` entries, newest first, after `after`. */
  async function newest(limit: number, after?: AuditPosition): Promise<AuditLogRow[]> {
    let query = deps.db.selectFrom('audit_log').selectAll();
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('at', '<', after.at), eb.and([eb('at', '=', after.at), eb('id', '<', after.id)])]),
      );
    }
    return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  return { record, newest };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

export function auditEntryJson(row: AuditLogRow): AuditEntryJson {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    actorUid: row.actor_uid,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
  };
}
