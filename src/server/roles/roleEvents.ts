import type { AuditEvent } from '../../shared/moderation.ts';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { MemberChanged } from '../identity/createIdentity.ts';

/** What the roles feature puts in the audit log (docs/product.md, Audit log); actorUid null: the operator's admin command. */
export type RoleEvent = AuditEvent<
  'member.role' | 'member.disable' | 'member.enable' | 'invitation.create' | 'invitation.use' | 'invitation.revoke',
  'user' | 'invitation'
>;

/**
 * Appends one event inside the caller's transaction. Structurally the audit feature's
 * RecordAudit, which the composition root (services.ts) passes in: roles does not import audit.
 */
export type RoleEventRecorder = (trx: Kysely<DatabaseSchema>, event: RoleEvent) => Promise<void>;

/** A member change as audit events: a role change and a disable or enable are one row each. */
export function memberChangeEvents({ actorUid, before, after }: MemberChanged): RoleEvent[] {
  const events: RoleEvent[] = [];
  const target = { actorUid, targetType: 'user', targetId: after.uid } as const;
  if (before.role !== after.role) {
    events.push({ ...target, action: 'member.role', detail: { from: before.role, to: after.role } });
  }
  if (before.disabled !== after.disabled) {
    events.push({ ...target, action: after.disabled ? 'member.disable' : 'member.enable' });
  }
  return events;
}
