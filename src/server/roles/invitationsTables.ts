import type { Selectable } from 'kysely';
import type { Role } from '../../shared/roles.ts';

/** The roles feature's tables (migration 0260). Times are epoch milliseconds. */
export interface RolesTables {
  invitations: InvitationsTable;
}

export interface InvitationsTable {
  id: string;
  /** SHA-256 (base64url) of the code in the link; the code itself is never stored. */
  code_hash: string;
  role: Role;
  /** Lowercased; only this address may use it. NULL: anyone with the link. */
  email: string | null;
  created_by: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  used_by: string | null;
  revoked_at: number | null;
}

export type InvitationRow = Selectable<InvitationsTable>;
