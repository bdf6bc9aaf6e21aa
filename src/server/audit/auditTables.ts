import type { Selectable } from 'kysely';

/** The audit feature's table (migration 0410). Only this feature queries it, and only appends. */
export interface AuditTables {
  audit_log: AuditLogTable;
}

export interface AuditLogTable {
  id: string;
  /** Epoch milliseconds. */
  at: number;
  /** NULL: the operator's admin command, or the system. */
  actor_uid: string | null;
  action: string;
  target_type: string;
  target_id: string;
  /** A JSON object. */
  detail: string;
}

export type AuditLogRow = Selectable<AuditLogTable>;
