import { paths } from '../../shared/routes.ts';
import { INVITATION_LIFETIME_MS, type SignupRefusal } from '../../shared/invitations.ts';
import type { Role } from '../../shared/roles.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { hashInvitationCode, isInvitationCodeShaped, newInvitationCode, newInvitationId } from './invitationCodes.ts';
import { createInvitationsStore } from './invitationsStore.ts';
import type { InvitationRow } from './invitationsTables.ts';
import type { RoleEventRecorder } from './roleEvents.ts';

/** The link an invitation is used through (the sign-up screen with its code). */
export const invitationUrl = (publicUrl: string, code: string) => `${publicUrl}${paths.signup}?invite=${code}`;

export type InvitationLookup = { ok: true; invitation: InvitationRow } | { ok: false; reason: SignupRefusal };

/** Making, listing, revoking and checking invitations; who may is the routes' business. */
export function createInvitations(deps: { database: Database; now: () => number; recordEvent: RoleEventRecorder }) {
  const { db } = deps.database;
  const store = createInvitationsStore(db);

  return {
    store,

    /**
     * A new invitation and the code for its link (returned once, never stored); `createdBy`:
     * null for the operator (the admin command). `mailed`: it went to its address (createRoles
     * sends it; false here).
     */
    async create(input: {
      role: Role;
      email: string | null;
      createdBy: string | null;
    }): Promise<{ invitation: InvitationRow; code: string; mailed: boolean }> {
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
      // The invitation and its audit row are written together or not at all.
      await db.transaction().execute(async (trx) => {
        await store.insert(row, trx);
        await deps.recordEvent(trx, {
          actorUid: input.createdBy,
          action: 'invitation.create',
          targetType: 'invitation',
          targetId: row.id,
          detail: { role: row.role, email: row.email },
        });
      });
      return { invitation: row, code, mailed: false };
    },

    listPending: () => store.listPending(deps.now()),

    /** false: it was no longer pending (used or revoked meanwhile). */
    revoke: (id: string, actorUid: string) =>
      db.transaction().execute(async (trx) => {
        if (!(await store.revoke(id, deps.now(), trx))) return false;
        await deps.recordEvent(trx, { actorUid, action: 'invitation.revoke', targetType: 'invitation', targetId: id });
        return true;
      }),

    /** Uses the invitation up for the new account `uid`, in the transaction creating it; false: no longer pending. */
    claim: async (invitation: InvitationRow, uid: string, trx: Transaction<DatabaseSchema>) => {
      if (!(await store.claim(invitation.id, uid, deps.now(), trx))) return false;
      await deps.recordEvent(trx, {
        actorUid: uid,
        action: 'invitation.use',
        targetType: 'invitation',
        targetId: invitation.id,
        detail: { role: invitation.role },
      });
      return true;
    },

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
