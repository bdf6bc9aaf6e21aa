import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from '../../../db/schema.ts';
import type { SessionRow, UserRow } from '../identityTables.ts';
import { SESSION_IDLE_LIFETIME_MS } from '../lifetimes.ts';
import { hashSecret, newId, newOpaqueSecret } from '../opaqueSecrets.ts';
import { servedUser, unchangedPhotoUrls, type PhotoUrls } from './photoUrls.ts';

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** A new session: its id (named by the ID tokens it gets) and its refresh token (never stored). */
export interface NewSession {
  id: string;
  refreshToken: string;
}

/** The `identity_sessions` table: one row per signed-in client, keyed by its refresh token's hash. */
export function createSessionsStore(db: Kysely<DatabaseSchema>, photos: PhotoUrls = unchangedPhotoUrls) {
  return {
    async create(
      userId: string,
      started: {
        authTime: number;
        provider: string;
        secondFactor?: string | undefined;
        secondFactorId?: string | undefined;
      },
      now: number,
      trx: Db = db,
    ): Promise<NewSession> {
      const refreshToken = newOpaqueSecret();
      const id = newId();
      await trx
        .insertInto('identity_sessions')
        .values({
          id,
          user_id: userId,
          token_hash: hashSecret(refreshToken),
          auth_time: started.authTime,
          provider: started.provider,
          second_factor: started.secondFactor ?? null,
          second_factor_id: started.secondFactorId ?? null,
          created_at: now,
          last_used_at: now,
        })
        .execute();
      return { id, refreshToken };
    },

    /**
     * The account behind an ID token, read in one statement with whether the token's session is
     * still live, so no change can fall between the two reads (decision 0020).
     */
    async findUserWithSession(
      userId: string,
      sessionId: string,
    ): Promise<{ user: UserRow; sessionLive: boolean; twoStepOn: boolean } | undefined> {
      // Whether a second factor is enrolled comes in the same read (at most one factor per
      // account): REQUIRE_TWO_STEP is checked on every authenticated request.
      const row = await db
        .selectFrom('users')
        .leftJoin('identity_sessions', (join) =>
          join.onRef('identity_sessions.user_id', '=', 'users.id').on('identity_sessions.id', '=', sessionId),
        )
        .leftJoin('two_step_factors', 'two_step_factors.user_id', 'users.id')
        .selectAll('users')
        .select(['identity_sessions.id as session_id', 'two_step_factors.enrollment_id as factor_id'])
        .where('users.id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { session_id: liveSessionId, factor_id: factorId, ...user } = row;
      return { user: servedUser(user, photos), sessionLive: liveSessionId !== null, twoStepOn: factorId !== null };
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

    /** The account a refresh token's session belonged to, when it was ended with all of the account's. */
    async endedSessionOwner(refreshToken: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('identity_ended_sessions')
        .select('user_id')
        .where('token_hash', '=', hashSecret(refreshToken))
        .executeTakeFirst();
      return row?.user_id;
    },

    async revoke(refreshToken: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('identity_sessions').where('token_hash', '=', hashSecret(refreshToken)).execute();
    },

    async revokeSomeOfUser(userId: string, sessionIds: string[], trx: Db = db): Promise<void> {
      if (sessionIds.length === 0) return;
      await trx.deleteFrom('identity_sessions').where('user_id', '=', userId).where('id', 'in', sessionIds).execute();
    },

    /** Ends one session by its id (the caller's own, replaced by a fresh one). */
    async revokeById(sessionId: string, trx: Db = db): Promise<void> {
      await trx.deleteFrom('identity_sessions').where('id', '=', sessionId).execute();
    },

    /**
     * Ends every session of the account, and every sign-in of it still awaiting its second step
     * (a password change must not leave a half sign-in with the old password completable).
     */
    async revokeAllOfUser(userId: string, trx: Db = db): Promise<void> {
      // Their refresh tokens are remembered for the idle lifetime (migration 0560): a refresh
      // then tells a deleted account (USER_NOT_FOUND) from an ended session (TOKEN_EXPIRED).
      const now = Date.now();
      await trx
        .deleteFrom('identity_ended_sessions')
        .where('ended_at', '<', now - SESSION_IDLE_LIFETIME_MS)
        .execute();
      await trx
        .insertInto('identity_ended_sessions')
        .columns(['token_hash', 'user_id', 'ended_at'])
        .expression((eb) =>
          eb
            .selectFrom('identity_sessions')
            .select(['token_hash', 'user_id', eb.val(now).as('ended_at')])
            .where('user_id', '=', userId),
        )
        .onConflict((conflict) => conflict.column('token_hash').doNothing())
        .execute();
      await trx.deleteFrom('identity_sessions').where('user_id', '=', userId).execute();
      await trx.deleteFrom('identity_pending_second_steps').where('user_id', '=', userId).execute();
    },
  };
}

export type SessionsStore = ReturnType<typeof createSessionsStore>;
