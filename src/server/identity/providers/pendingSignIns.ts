import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { hashSecret } from '../core/opaqueSecrets.ts';
import type { PendingSignInRow } from './providersTables.ts';

/** How long a person may spend on the provider's pages; the state cookie lives as long. */
export const PENDING_SIGN_IN_LIFETIME_MS = 10 * 60 * 1000;

/**
 * Browser sign-ins under way, in the database so that any process may finish what another
 * started. Each is used at most once: taking it deletes it, and only the statement that deleted
 * it gets it, so a replayed callback finds nothing.
 */
export function createPendingSignIns(db: Kysely<DatabaseSchema>, now: () => number) {
  return {
    async save(state: string, pending: Omit<PendingSignInRow, 'state_hash' | 'expires_at'>): Promise<void> {
      const at = now();
      // Expired ones are cleared as new ones come in: the table holds only minutes of sign-ins.
      await db.deleteFrom('oauth_pending_sign_ins').where('expires_at', '<', at).execute();
      await db
        .insertInto('oauth_pending_sign_ins')
        .values({ ...pending, state_hash: hashSecret(state), expires_at: at + PENDING_SIGN_IN_LIFETIME_MS })
        .execute();
    },

    /** The live pending sign-in this state names, once; undefined when unknown, used or expired. */
    async take(state: string): Promise<PendingSignInRow | undefined> {
      const taken = await db
        .deleteFrom('oauth_pending_sign_ins')
        .where('state_hash', '=', hashSecret(state))
        .returningAll()
        .executeTakeFirst();
      if (!taken || taken.expires_at < now()) return undefined;
      return taken;
    },
  };
}

export type PendingSignIns = ReturnType<typeof createPendingSignIns>;
