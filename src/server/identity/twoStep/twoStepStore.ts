import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { hashSecret } from '../core/opaqueSecrets.ts';
import { recoveryCodeHash } from './recoveryCodes.ts';
import type { TwoStepFactorsTable } from './twoStepTables.ts';

export type FactorRow = Selectable<TwoStepFactorsTable>;
type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/**
 * The two-step tables. Every "use once" here is one conditional statement, so two requests
 * racing with the same code, credential or enrollment cannot both win.
 */
export function createTwoStepStore(db: Kysely<DatabaseSchema>) {
  return {
    factorOf: (userId: string, trx: Db = db): Promise<FactorRow | undefined> =>
      trx.selectFrom('two_step_factors').selectAll().where('user_id', '=', userId).executeTakeFirst(),

    /** false: the account has a factor already. */
    async insertFactor(row: FactorRow, trx: Db): Promise<boolean> {
      const result = await trx
        .insertInto('two_step_factors')
        .values(row)
        .onConflict((conflict) => conflict.column('user_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    /** Records a code of `step` as used; false when that step (or a later one) was used already. */
    async useStep(userId: string, step: number): Promise<boolean> {
      const result = await db
        .updateTable('two_step_factors')
        .set({ last_used_step: step })
        .where('user_id', '=', userId)
        .where('last_used_step', '<', step)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Removes the factor with its recovery codes and waiting sign-ins; false when there was none. */
    async removeAllOfUser(userId: string, trx: Db = db): Promise<boolean> {
      await trx.deleteFrom('two_step_recovery_codes').where('user_id', '=', userId).execute();
      await trx.deleteFrom('two_step_wrong_codes').where('user_id', '=', userId).execute();
      await trx.deleteFrom('two_step_enrollments').where('user_id', '=', userId).execute();
      const result = await trx.deleteFrom('two_step_factors').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async saveEnrollment(sessionInfo: string, userId: string, secret: string, expiresAt: number, now: number) {
      // Expired ones are cleared as new ones come in: the table holds only minutes of enrollments.
      await db.deleteFrom('two_step_enrollments').where('expires_at', '<', now).execute();
      await db
        .insertInto('two_step_enrollments')
        .values({
          session_hash: hashSecret(sessionInfo),
          user_id: userId,
          secret,
          wrong_codes: 0,
          expires_at: expiresAt,
        })
        .execute();
    },

    findEnrollment: (sessionInfo: string) =>
      db
        .selectFrom('two_step_enrollments')
        .selectAll()
        .where('session_hash', '=', hashSecret(sessionInfo))
        .executeTakeFirst(),

    /** Counts a wrong code on an enrollment; it goes at `limit`. */
    async countWrongEnrollmentCode(sessionInfo: string, limit: number): Promise<void> {
      const hash = hashSecret(sessionInfo);
      await db
        .updateTable('two_step_enrollments')
        .set((eb) => ({ wrong_codes: eb('wrong_codes', '+', 1) }))
        .where('session_hash', '=', hash)
        .execute();
      await db
        .deleteFrom('two_step_enrollments')
        .where('session_hash', '=', hash)
        .where('wrong_codes', '>=', limit)
        .execute();
    },

    /** Takes the enrollment (it works once); false when another request took it first. */
    async takeEnrollment(sessionInfo: string, trx: Db): Promise<boolean> {
      const result = await trx
        .deleteFrom('two_step_enrollments')
        .where('session_hash', '=', hashSecret(sessionInfo))
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async insertRecoveryCodes(userId: string, codes: string[], trx: Db): Promise<void> {
      await trx
        .insertInto('two_step_recovery_codes')
        .values(codes.map((code) => ({ code_hash: recoveryCodeHash(code), user_id: userId, used_at: null })))
        .execute();
    },

    /** Uses one of the account's unused recovery codes; false when it is not one. */
    async useRecoveryCode(userId: string, typed: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('two_step_recovery_codes')
        .set({ used_at: now })
        .where('code_hash', '=', recoveryCodeHash(typed))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async unusedRecoveryCodes(userId: string): Promise<number> {
      const row = await db
        .selectFrom('two_step_recovery_codes')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Wrong codes given so far for a pending second step. */
    async wrongCodesFor(credential: string): Promise<number> {
      const row = await db
        .selectFrom('two_step_wrong_codes')
        .select('wrong_codes')
        .where('credential_hash', '=', hashSecret(credential))
        .executeTakeFirst();
      return row?.wrong_codes ?? 0;
    },

    /** Counts a wrong code for a pending second step (one statement, so parallel guesses all count). */
    async countWrongCode(credential: string, userId: string, expiresAt: number, now: number): Promise<void> {
      // Rows outlive their pending step by nothing: expired ones go as new ones come in.
      await db.deleteFrom('two_step_wrong_codes').where('expires_at', '<', now).execute();
      await db
        .insertInto('two_step_wrong_codes')
        .values({ credential_hash: hashSecret(credential), user_id: userId, wrong_codes: 1, expires_at: expiresAt })
        .onConflict((conflict) =>
          conflict.column('credential_hash').doUpdateSet((eb) => ({
            wrong_codes: eb('two_step_wrong_codes.wrong_codes', '+', 1),
          })),
        )
        .execute();
    },
  };
}

export type TwoStepStore = ReturnType<typeof createTwoStepStore>;
