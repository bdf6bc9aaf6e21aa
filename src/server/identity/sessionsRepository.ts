import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { IdentitySessionsTable } from './identityTables.ts';
import type { SignInProvider } from './idTokens.ts';
import type { UserRow } from './usersRepository.ts';
import { hashSecret, newId, newOpaqueSecret } from './opaqueSecrets.ts';

export type SessionRow = Selectable<IdentitySessionsTable>;
type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** A new session: its id (named by the ID tokens it gets) and its refresh token (never stored). */
export interface NewSession {
  id: string;
  refreshToken: string;
}

/** A refresh token unused this long is dead. */
export const SESSION_IDLE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export function createSessionsRepository(db: Kysely<DatabaseSchema>) {
  return {
    /** Starts a session; `signInProvider` is remembered for its refreshed ID tokens (absent: password). */
    async create(
      userId: string,
      authTime: number,
      now: number,
      trx: Db = db,
      signInProvider?: SignInProvider,
    ): Promise<NewSession> {
      const refreshToken = newOpaqueSecret();
      const id = newId();
      await trx
        .insertInto('identity_sessions')
        .values({
          id,
          user_id: userId,
          token_hash: hashSecret(refreshToken),
          auth_time: authTime,
          created_at: now,
          last_used_at: now,
          sign_in_provider: signInProvider === undefined || signInProvider === 'password' ? null : signInProvider,
        })
        .execute();
      return { id, refreshToken };
    },

    /**
     * The account behind an ID token, read in one statement with whether the token's session is
     * still live, so no change can fall between the two reads.
     */
    async findUserWithSession(
      userId: string,
      sessionId: string,
    ): Promise<{ user: UserRow; sessionLive: boolean } | undefined> {
      const row = await db
        .selectFrom('users')
        .leftJoin('identity_sessions', (join) =>
          join.onRef('identity_sessions.user_id', '=', 'users.id').on('identity_sessions.id', '=', sessionId),
        )
        .selectAll('users')
        .select('identity_sessions.id as session_id')
        .where('users.id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { session_id: liveSessionId, ...user } = row;
      return { user, sessionLive: liveSessionId !== null };
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
