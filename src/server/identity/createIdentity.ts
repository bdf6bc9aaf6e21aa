import type { FastifyPluginAsync } from 'fastify';
import type { Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import { createDeliveryTimingMask } from './deliveryTimingMask.ts';
import { tokenIssuer } from './idTokens.ts';
import { createIdentityAdmin, type IdentityAdmin } from './identityAdmin.ts';
import type { IdentityContext, SignInOutcome, UserDeletingListener } from './identityContext.ts';
import { identityRateLimitRules } from './identityRateLimits.ts';
import { identityRoutes } from './identityRoutes.ts';
import { createSessionDoor, type SessionDoor } from './sessionDoor.ts';
import { createOobCodesRepository } from './oobCodesRepository.ts';
import { createSessionsRepository } from './sessionsRepository.ts';
import { createSigningKeys } from './signingKeys.ts';
import { createUsersRepository } from './usersRepository.ts';
import { createIdTokenVerifier, IdTokenError, toVerifiedUser, type VerifiedUser } from './verifyIdToken.ts';

export { IdTokenError, type VerifiedUser, type SignInOutcome, type IdentityAdmin, type SessionDoor };
export type { AdminUserView } from './identityAdmin.ts';

export interface Identity {
  /** Register with `{ prefix: '/identity' }`. */
  routes: FastifyPluginAsync;
  /**
   * The one ID token check for the rest of the app. Rejects with IdTokenError: bad
   * signature, unknown kid, wrong alg/aud/iss, expired, issued before the user's last
   * password change or reset, disabled or deleted user.
   */
  verifyIdToken(idToken: string): Promise<VerifiedUser>;
  /** Runs inside the deleting transaction, before the users row goes. */
  onUserDeleting(listener: (uid: string, trx: Transaction<DatabaseSchema>) => Promise<void>): void;
  /** Called after every password sign-in attempt (metrics); must not throw. */
  onSignIn(listener: (outcome: SignInOutcome) => void): void;
  /** Operator actions (the admin command). */
  admin: IdentityAdmin;
  /** For sign-in doors besides the password (passkeys): tokens, limits and sessions by identity's rules. */
  sessionDoor: SessionDoor;
}

export function createIdentity(deps: {
  config: Config;
  database: Database;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  clock?: () => number;
}): Identity {
  const { config, database } = deps;
  const now = deps.clock ?? Date.now;
  const users = createUsersRepository(database.db);
  const keys = createSigningKeys(database.db, now);
  const issuer = tokenIssuer(config.publicUrl);
  const sessions = createSessionsRepository(database.db);
  const verifyToken = createIdTokenVerifier({ keys, sessions, issuer, audience: config.projectId, now });
  const userDeletingListeners: UserDeletingListener[] = [];
  const signInListeners: ((outcome: SignInOutcome) => void)[] = [];
  const context: IdentityContext = {
    config,
    database,
    users,
    sessions,
    oobCodes: createOobCodesRepository(database.db),
    keys,
    mailer: deps.mailer,
    rateLimiter: deps.rateLimiter,
    rules: identityRateLimitRules(config.rateLimits),
    deliveryMask: createDeliveryTimingMask(),
    userDeletingListeners,
    events: {
      signIn: (outcome) => {
        for (const listener of signInListeners) listener(outcome);
      },
    },
    issuer,
    now,
    verifyToken,
  };
  return {
    routes: identityRoutes(context),
    verifyIdToken: async (idToken) => toVerifiedUser((await verifyToken(idToken)).user),
    onUserDeleting: (listener) => {
      userDeletingListeners.push(listener);
    },
    onSignIn: (listener) => {
      signInListeners.push(listener);
    },
    admin: createIdentityAdmin(context),
    sessionDoor: createSessionDoor(context),
  };
}
