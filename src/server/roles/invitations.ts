import { INVITATION_LIFETIME_MS, type SignupRefusal } from '../../shared/invitations.ts';
import type { Role } from '../../shared/roles.ts';
import type { Database } from '../db/database.ts';
import { hashInvitationCode, isInvitationCodeShaped, newInvitationCode, newInvitationId } from './invitationCodes.ts';
import { createInvitationsStore } from './invitationsStore.ts';
import type { InvitationRow } from './invitationsTables.ts';

export type InvitationLookup = { ok: true; invitation: InvitationRow } | { ok: false; reason: SignupRefusal };

/** Making, listing, revoking and checking invitations; who may is the routes' business. */
export function createInvitations(deps: { database: Database; now: () => number }) {
  const store = createInvitationsStore(deps.database.db);

  return {
    store,

    /** A new invitation and the code for its link (returned once, never stored). */
    async create(input: { role: Role; email: string | null; createdBy: string }) {
      const code = newInvitationCode();
      const now = deps.now();
      const row: InvitationRow = {
        id: newInvitationId(),
        code_hash: hashInvitationCode(code),
        role: input.role,
        email: input.email,
        created_by: input.createdBy,
        created_at: now,
        expires_at: now + INVITATION_LIFETIME_MS,
        used_at: null,
        used_by: null,
        revoked_at: null,
      };
      await store.insert(row);
      return { invitation: row, code };
    },

    listPending: () => store.listPending(deps.now()),

    /** false: it was no longer pending (used or revoked meanwhile). */
    revoke: (id: string) => store.revoke(id, deps.now()),

    /**
     * The invitation a code names, if it can still be used (by `email`, when given); else why
     * not. Used, revoked and expired are told apart: whoever holds the link was invited once.
     */
    async lookUp(code: string, email?: string): Promise<InvitationLookup> {
      const invitation = isInvitationCodeShaped(code)
        ? await store.findByCodeHash(hashInvitationCode(code))
        : undefined;
      if (!invitation) return { ok: false, reason: 'INVITATION_INVALID' };
      if (invitation.used_at !== null) return { ok: false, reason: 'INVITATION_USED' };
      if (invitation.revoked_at !== null) return { ok: false, reason: 'INVITATION_REVOKED' };
      if (invitation.expires_at <= deps.now()) return { ok: false, reason: 'INVITATION_EXPIRED' };
      if (email !== undefined && invitation.email !== null && invitation.email !== email) {
        return { ok: false, reason: 'INVITATION_OTHER_ADDRESS' };
      }
      return { ok: true, invitation };
    },
  };
}

export type Invitations = ReturnType<typeof createInvitations>;
