import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from '../../../db/schema.ts';
import { normalizeEmail } from '../../../../shared/identityRequests.ts';
import type { UserRow } from '../identityTables.ts';
import { isUniqueViolation } from '../uniqueViolation.ts';
import { servedUser, storedUser, unchangedPhotoUrls, type PhotoUrls } from './photoUrls.ts';

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

export class EmailTakenError extends Error {
  override name = 'EmailTakenError';
}

/** The `users` table; the core's operations decide when and in which transaction. */
export function createUsersStore(db: Kysely<DatabaseSchema>, photos: PhotoUrls = unchangedPhotoUrls) {
  const served = (row: UserRow | undefined) => row && servedUser(row, photos);
  return {
    async insert(row: UserRow, trx: Db = db): Promise<void> {
      try {
        await trx.insertInto('users').values(storedUser(row, photos)).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new EmailTakenError();
        throw error;
      }
    },

    async findById(id: string, trx: Db = db): Promise<UserRow | undefined> {
      return served(await trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst());
    },

    async findByEmail(email: string, trx: Db = db): Promise<UserRow | undefined> {
      return served(
        await trx.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst(),
      );
    },

    /** The name and the photo URL as stored (origin-free for uploads here): what other features keep. */
    async findStoredProfile(
      id: string,
      trx: Db = db,
    ): Promise<{ id: string; displayName: string | null; photoUrl: string | null } | undefined> {
      return trx
        .selectFrom('users')
        .select(['id', 'display_name as displayName', 'photo_url as photoUrl'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async update(id: string, changes: Partial<Omit<UserRow, 'id'>>, trx: Db = db): Promise<void> {
      try {
        await trx.updateTable('users').set(storedUser(changes, photos)).where('id', '=', id).execute();
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
      const rows = await db.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map((row) => servedUser(row, photos));
    },
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
