import type { FastifyPluginAsync } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import { createChallengeStore, type PasskeyLimits } from './challengeStore.ts';
import type { PasskeyIdentity } from './passkeyIdentity.ts';
import { passkeysRoutes } from './passkeysRoutes.ts';
import { createPasskeysRepository } from './passkeysRepository.ts';
import { relyingParty } from './relyingParty.ts';

export type { PasskeyIdentity } from './passkeyIdentity.ts';

/** What the authenticator shows next to the account when a passkey is made or used. */
const RELYING_PARTY_NAME = 'Inkwell';

export interface Passkeys {
  /** Registered inside identity's `/identity` scope (identity.addDoor), which sets up bodies, cookies and errors. */
  routes: FastifyPluginAsync;
  /** How many passkeys an account has (the admin command's `users show`). */
  countOfUser(uid: string): Promise<number>;
  /** An account is being deleted: its passkeys go in the same transaction. */
  deleteByUser(uid: string, trx: Transaction<DatabaseSchema>): Promise<void>;
}

export function createPasskeys(deps: {
  database: Database;
  publicUrl: string;
  /** Passkeys reach identity only through this (adapted in services.ts). */
  identity: PasskeyIdentity;
  rateLimiter: RateLimiter;
  limits: PasskeyLimits;
  clock?: (() => number) | undefined;
}): Passkeys {
  const now = deps.clock ?? Date.now;
  const passkeys = createPasskeysRepository(deps.database.db);
  return {
    routes: async (app) => {
      await app.register(
        passkeysRoutes({
          identity: deps.identity,
          passkeys,
          challenges: createChallengeStore(deps.database.db, now, deps.limits.anonymousChallengesMax),
          rateLimiter: deps.rateLimiter,
          signInStartsPerIp: deps.limits.signInStartsPerIp,
          relyingParty: relyingParty(deps.publicUrl, RELYING_PARTY_NAME),
          now,
        }),
      );
    },
    countOfUser: (uid) => passkeys.countOfUser(uid),
    deleteByUser: (uid, trx) => passkeys.removeAllOfUser(uid, trx),
  };
}
