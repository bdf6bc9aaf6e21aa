import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from '../../../db/schema.ts';
import type { OobCodeRow } from '../identityTables.ts';
import { hashSecret, newOpaqueSecret } from '../opaqueSecrets.ts';

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

export type OobRequestType = 'PASSWORD_RESET' | 'VERIFY_EMAIL' | 'VERIFY_AND_CHANGE_EMAIL' | 'RECOVER_EMAIL';

/** The `identity_oob_codes` table: emailed action codes, kept only as hashes. */
export function createOobCodesStore(db: Kysely<DatabaseSchema>) {
  return {
    /**
     * Issues a code; the user's earlier code of the same type stops working, except recovery
     * codes: each undoes its own change, and a hijacker's second change must not take the
     * first recovery link away. Returns the code (it goes into an email and is never stored).
     */
    async issue(
      code: { userId: string; email: string; newEmail?: string; requestType: OobRequestType; lifetimeMs: number },
      now: number,
      trx: Db = db,
    ): Promise<string> {
      const secret = newOpaqueSecret();
      if (code.requestType !== 'RECOVER_EMAIL') {
        await trx
          .deleteFrom('identity_oob_codes')
          .where('user_id', '=', code.userId)
          .where('request_type', '=', code.requestType)
          .execute();
      }
      await trx
        .insertInto('identity_oob_codes')
        .values({
          code_hash: hashSecret(secret),
          user_id: code.userId,
          email: code.email,
          new_email: code.newEmail ?? null,
          request_type: code.requestType,
          created_at: now,
          expires_at: now + code.lifetimeMs,
          used_at: null,
        })
        .execute();
      return secret;
    },

    async find(code: string, trx: Db = db): Promise<OobCodeRow | undefined> {
      return trx
        .selectFrom('identity_oob_codes')
        .selectAll()
        .where('code_hash', '=', hashSecret(code))
        .executeTakeFirst();
    },

    /** Marks the code used; false when another request used it first. */
    async markUsed(code: string, now: number, trx: Db = db): Promise<boolean> {
      const result = await trx
        .updateTable('identity_oob_codes')
        .set({ used_at: now })
        .where('code_hash', '=', hashSecret(code))
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Ends the user's codes, except those of the types kept (a recovery link outlives the change it undoes). */
    async revokeAllOfUser(userId: string, trx: Db, keep: OobRequestType[] = []): Promise<void> {
      let query = trx.deleteFrom('identity_oob_codes').where('user_id', '=', userId);
      if (keep.length > 0) query = query.where('request_type', 'not in', keep);
      await query.execute();
    },
  };
}

export type OobCodesStore = ReturnType<typeof createOobCodesStore>;
