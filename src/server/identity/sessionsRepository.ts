import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { IdentitySessionsTable } from './identityTables.ts';
import { hashSecret, newId, newOpaqueSecret } from './opaqueSecrets.ts';

export type SessionRow = Selectable<IdentitySessionsTable>;
type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** A refresh token unused this long is dead. */
export const SESSION_IDLE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export function createSessionsRepository(db: Kysely<DatabaseSchema>) {
  return {
    /** Starts a session; returns the refresh token, which is never stored. */
    async create(userId: string, authTime: number, now: number, trx: Db = db): Promise<string> {
      const refreshToken = newOpaqueSecret();
      await trx
        .insertInto('identity_sessions')
        .values({
          id: newId(),
          user_id: userId,
          token_hash: hashSecret(refreshToken),
          auth_time: authTime,
          created_at: now,
          last_used_at: now,
        })
        .execute();
      return refreshToken;
    },

    /** The live session of a refresh token, marked as used now; undefined when dead or unknown. */
    async use(refreshToken: string, now: number): Promise<SessionRow | undefined> {
      const tokenHash = hashSecret(refreshToken);
      const row = await db
        .selectFrom('identity_sessions')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (!row) return undefined;
      if (now - row.last_used_at > SESSION_IDLE_LIFETIME_MS) {
        await db.deleteFrom('identity_sessions').where('id', '=', row.id).execute();
        return undefined;
      }
      await db.updateTable('identity_sessions').set({ last_used_at: now }).where('id', '=', row.id).execute();
      return row;
    },

    async revoke(refreshToken: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('identity_sessions').where('token_hash', '=', hashSecret(refreshToken)).execute();
    },

    async revokeAllOfUser(userId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('identity_sessions').where('user_id', '=', userId).execute();
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
