import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { PasskeysTable } from './passkeysTables.ts';

export type PasskeyRow = Selectable<PasskeysTable>;
type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

export function createPasskeysRepository(db: Kysely<DatabaseSchema>) {
  return {
    find: (id: string) => db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst(),

    listOfUser: (userId: string) =>
      db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute(),

    async countOfUser(userId: string): Promise<number> {
      const row = await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** false: a passkey with this credential id exists already. */
    async insert(row: PasskeyRow): Promise<boolean> {
      const result = await db
        .insertInto('passkeys')
        .values(row)
        .onConflict((conflict) => conflict.column('id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    /** Records a verified use: the authenticator's new counter and when. */
    async recordUse(id: string, counter: number, at: number): Promise<void> {
      await db.updateTable('passkeys').set({ counter, last_used_at: at }).where('id', '=', id).execute();
    },

    /** Only the owner's: false when the account has no passkey with this id. */
    async rename(userId: string, id: string, name: string): Promise<boolean> {
      const result = await db
        .updateTable('passkeys')
        .set({ name })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Only the owner's: false when the account has no passkey with this id. */
    /**
     * Records that the passkey opened the session; false when the passkey is gone (removed while
     * its sign-in was finishing), and the caller then ends the session.
     */
    async recordSession(passkeyId: string, sessionId: string): Promise<boolean> {
      const result = await db
        .insertInto('passkey_sessions')
        .columns(['session_id', 'passkey_id'])
        .expression((eb) =>
          eb
            .selectFrom('passkeys')
            .select((inner) => [inner.val(sessionId).as('session_id'), 'passkeys.id'])
            .where('passkeys.id', '=', passkeyId),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** The live sessions the user's passkey opened. */
    async sessionsOf(userId: string, passkeyId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('passkey_sessions')
        .innerJoin('passkeys', 'passkeys.id', 'passkey_sessions.passkey_id')
        .select('passkey_sessions.session_id')
        .where('passkeys.id', '=', passkeyId)
        .where('passkeys.user_id', '=', userId)
        .execute();
      return rows.map((row) => row.session_id);
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('passkeys')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async removeAllOfUser(userId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('passkey_challenges').where('user_id', '=', userId).execute();
      await trx.deleteFrom('passkeys').where('user_id', '=', userId).execute();
    },
  };
}

export type PasskeysRepository = ReturnType<typeof createPasskeysRepository>;
