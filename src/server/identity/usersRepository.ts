import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import { normalizeEmail } from './emailAddress.ts';
import { validSinceAfterChange } from './idTokens.ts';
import type { UsersTable } from './identityTables.ts';

export type UserRow = Selectable<UsersTable>;
type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

export class EmailTakenError extends Error {
  override name = 'EmailTakenError';
}

// Re-exported for callers that look users up by email and already import this repository.
export { normalizeEmail };

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e.message ?? '')
  );
}

export function createUsersRepository(db: Kysely<DatabaseSchema>) {
  return {
    async insert(row: UserRow, trx: Db = db): Promise<void> {
      try {
        await trx.insertInto('users').values(row).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new EmailTakenError();
        throw error;
      }
    },

    async findById(id: string, trx: Db = db): Promise<UserRow | undefined> {
      return trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
    },

    async update(id: string, changes: Partial<Omit<UserRow, 'id'>>, trx: Db = db): Promise<void> {
      try {
        await trx.updateTable('users').set(changes).where('id', '=', id).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new EmailTakenError();
        throw error;
      }
    },

    /**
     * Replaces a hash that verified with its argon2id re-hash, only if it is still the stored
     * one: a password reset committed meanwhile must not be undone by the old password.
     */
    async replacePasswordHash(id: string, verified: string, rehashed: string, trx: Db = db): Promise<void> {
      await trx
        .updateTable('users')
        .set({ password_hash: rehashed })
        .where('id', '=', id)
        .where('password_hash', '=', verified)
        .execute();
    },

    async delete(id: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('users').where('id', '=', id).execute();
    },

    /** Every account, oldest first (operators). */
    async list(): Promise<UserRow[]> {
      return db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute();
    },

    /**
     * Disables the account: every ID token it holds is refused at once (valid_since moves
     * past them). Its sessions stay, so a refresh answers USER_DISABLED rather than a vaguer
     * TOKEN_EXPIRED; enable() ends them.
     */
    async disable(id: string, now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select('valid_since').where('id', '=', id).executeTakeFirst();
        if (!user) return;
        await trx
          .updateTable('users')
          .set({ disabled: 1, valid_since: validSinceAfterChange(now, user.valid_since) })
          .where('id', '=', id)
          .execute();
      });
    },

    /** Enables the account again; sessions from before the disable stay dead (sign in again). */
    async enable(id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ disabled: 0 }).where('id', '=', id).execute();
        await trx.deleteFrom('identity_sessions').where('user_id', '=', id).execute();
      });
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
