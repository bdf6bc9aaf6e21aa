import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from '../../../db/schema.ts';
import type { PendingSecondStepRow } from '../identityTables.ts';
import { hashSecret, isOpaqueSecretShaped, newOpaqueSecret } from '../opaqueSecrets.ts';

type Trx = Transaction<DatabaseSchema>;

/** How long a pending second step may be completed after its first factor (Firebase allows minutes). */
export const PENDING_SECOND_STEP_LIFETIME_MS = 5 * 60 * 1000;

/**
 * `identity_pending_second_steps`: sign-ins whose first factor is proven and whose second is
 * awaited. Only the SHA-256 of the pending credential is kept; a row is used up by the session
 * it leads to, ends with the account's sessions (sessionsStore.revokeAllOfUser), and expired rows go whenever a new one is made (each needs a proven first factor,
 * which the sign-in limits bound, so the table stays small).
 */
export function createPendingSecondStepsStore(db: Kysely<DatabaseSchema>) {
  return {
    /** A new pending credential for `userId`; `writes` run in the same transaction. */
    async create(userId: string, provider: string, now: number, writes: (trx: Trx) => Promise<void>): Promise<string> {
      const credential = newOpaqueSecret();
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('identity_pending_second_steps').where('expires_at', '<=', now).execute();
        await trx
          .insertInto('identity_pending_second_steps')
          .values({
            credential_hash: hashSecret(credential),
            user_id: userId,
            provider,
            created_at: now,
            expires_at: now + PENDING_SECOND_STEP_LIFETIME_MS,
          })
          .execute();
        await writes(trx);
      });
      return credential;
    },

    /** The live pending step a credential names; undefined when unknown, used or expired. */
    async find(credential: string, now: number): Promise<PendingSecondStepRow | undefined> {
      if (!isOpaqueSecretShaped(credential)) return undefined;
      return db
        .selectFrom('identity_pending_second_steps')
        .selectAll()
        .where('credential_hash', '=', hashSecret(credential))
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    /** Uses the credential up; false when another request used it first. */
    async use(credential: string, trx: Trx): Promise<boolean> {
      const result = await trx
        .deleteFrom('identity_pending_second_steps')
        .where('credential_hash', '=', hashSecret(credential))
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type PendingSecondStepsStore = ReturnType<typeof createPendingSecondStepsStore>;
