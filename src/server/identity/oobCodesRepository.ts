import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { IdentityOobCodesTable } from './identityTables.ts';
import { hashSecret, newOpaqueSecret } from './opaqueSecrets.ts';

export type OobCodeRow = Selectable<IdentityOobCodesTable>;
type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

export const PASSWORD_RESET_CODE_LIFETIME_MS = 60 * 60 * 1000;

export function createOobCodesRepository(db: Kysely<DatabaseSchema>) {
  return {
    /** Issues a new reset code for the user; any older one stops working. Returns the code. */
    async issuePasswordReset(userId: string, email: string, now: number): Promise<string> {
      const code = newOpaqueSecret();
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('identity_oob_codes').where('user_id', '=', userId).execute();
        await trx
          .insertInto('identity_oob_codes')
          .values({
            code_hash: hashSecret(code),
            user_id: userId,
            email,
            request_type: 'PASSWORD_RESET',
            created_at: now,
            expires_at: now + PASSWORD_RESET_CODE_LIFETIME_MS,
            used_at: null,
          })
          .execute();
      });
      return code;
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
  };
}

export type OobCodesRepository = ReturnType<typeof createOobCodesRepository>;
