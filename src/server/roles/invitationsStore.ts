import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { InvitationRow } from './invitationsTables.ts';

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** The `invitations` table. */
export function createInvitationsStore(db: Kysely<DatabaseSchema>) {
  return {
    async insert(row: InvitationRow, trx: Db = db): Promise<void> {
      await trx.insertInto('invitations').values(row).execute();
    },

    findByCodeHash(codeHash: string): Promise<InvitationRow | undefined> {
      return db.selectFrom('invitations').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    },

    findById(id: string): Promise<InvitationRow | undefined> {
      return db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Not used, not revoked, not expired; newest first. */
    listPending(now: number): Promise<InvitationRow[]> {
      return db
        .selectFrom('invitations')
        .selectAll()
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(500)
        .execute();
    },

    /** Revokes a pending invitation; false when it was not pending (used, revoked meanwhile). */
    async revoke(id: string, now: number, trx: Db = db): Promise<boolean> {
      const result = await trx
        .updateTable('invitations')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Uses the invitation up for `uid`, only if it is still pending: of two sign-ups racing
     * with one code, exactly one changes the row. false: the other one did (or it was revoked
     * or expired meanwhile).
     */
    async claim(id: string, uid: string, now: number, trx: Db): Promise<boolean> {
      const result = await trx
        .updateTable('invitations')
        .set({ used_at: now, used_by: uid })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type InvitationsStore = ReturnType<typeof createInvitationsStore>;
