import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { ChallengePurpose } from './passkeysTables.ts';

/** How long a ceremony may take: WebAuthn's own timeout (60 s by default) plus room for slow people. */
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;

export interface PasskeyLimits {
  /** Sign-in ceremonies one client IP may start per 15 minutes (RATE_LIMIT_PASSKEY_SIGNIN_START_PER_IP). */
  signInStartsPerIp: number;
  /** Live challenges not bound to an account, all clients together (PASSKEY_ANONYMOUS_CHALLENGES_MAX). */
  anonymousChallengesMax: number;
}

/** Thrown by save() when the live anonymous challenges are at their cap. */
export class ChallengesFullError extends Error {
  override name = 'ChallengesFullError';
}

const hash = (challenge: string) => createHash('sha256').update(challenge).digest('base64url');

/**
 * Ceremony challenges in the database, so any process may finish what another started. Each is
 * used at most once: taking it deletes it, and only the statement that deleted it gets it.
 */
export function createChallengeStore(db: Kysely<DatabaseSchema>, now: () => number, anonymousMax: number) {
  return {
    async save(challenge: string, purpose: ChallengePurpose, userId: string | null): Promise<void> {
      const at = now();
      // Expired ones are cleared as new ones come in: the table holds only minutes of ceremonies.
      await db.deleteFrom('passkey_challenges').where('expires_at', '<', at).execute();
      // Anyone may start a sign-in: the per-IP limit slows one client, this cap bounds all of them
      // (many addresses) to a fixed number of rows. Concurrent saves may pass it by a few.
      if (userId === null) {
        const live = await db
          .selectFrom('passkey_challenges')
          .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
          .where('user_id', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(live.n) >= anonymousMax) throw new ChallengesFullError();
      }
      await db
        .insertInto('passkey_challenges')
        .values({ challenge_hash: hash(challenge), purpose, user_id: userId, expires_at: at + CHALLENGE_LIFETIME_MS })
        .execute();
    },

    /**
     * Takes a live challenge of this purpose: found (with the account it is bound to, or null) or
     * undefined when unknown, used, expired or meant for another ceremony.
     */
    async take(challenge: string, purpose: ChallengePurpose): Promise<{ userId: string | null } | undefined> {
      const taken = await db
        .deleteFrom('passkey_challenges')
        .where('challenge_hash', '=', hash(challenge))
        .returning(['purpose', 'user_id', 'expires_at'])
        .executeTakeFirst();
      if (!taken || taken.purpose !== purpose || taken.expires_at < now()) return undefined;
      return { userId: taken.user_id };
    },
  };
}

export type ChallengeStore = ReturnType<typeof createChallengeStore>;
