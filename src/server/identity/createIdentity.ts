import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import {
  createIdentityCore,
  IdTokenError,
  type AdminUserView,
  type IdentityCore,
  type SignInOutcome,
  type UserDeletingListener,
  type VerifiedUser,
} from './core/identityCore.ts';
import { createSessionsStore } from './core/sessionsStore.ts';
import { toVerifiedUser } from './core/verifyIdToken.ts';
import { passwordHasher } from './passwords.ts';
import { identityRoutes } from './protocol/identityRoutes.ts';
import { sessionDelivery } from './protocol/sessionDelivery.ts';
import { createSessionDoor, type SessionDoor } from './protocol/sessionDoor.ts';

export { IdTokenError, type VerifiedUser, type SignInOutcome, type AdminUserView, type SessionDoor };
export type { IssuedSession } from './core/identityCore.ts';

/** The identity feature as the rest of the app sees it: the core and its doors. */
export interface Identity {
  /** The Identity Toolkit door. Register with `{ prefix: '/identity' }`. */
  routes: FastifyPluginAsync;
  /**
   * The one ID token check for the rest of the app. Rejects with IdTokenError: bad
   * signature, unknown kid, wrong alg/aud/iss, expired, its session ended, disabled or deleted user.
   */
  verifyIdToken(idToken: string): Promise<VerifiedUser>;
  /** Runs inside the deleting transaction, before the users row goes. */
  onUserDeleting(listener: UserDeletingListener): void;
  /** Called after every password sign-in attempt (metrics); must not throw. */
  onSignIn(listener: (outcome: SignInOutcome) => void): void;
  /** Operator actions (the admin command's door). */
  admin: IdentityCore['operator'];
  /** Issues a session for an account another door authenticated (passkeys); see IdentityCore.issueSession. */
  issueSession: IdentityCore['issueSession'];
  /** The core itself, for doors added beside the protocol (passkeys, import). */
  core: IdentityCore;
  /** For sign-in doors besides the password (passkeys): tokens, limits and sessions by identity's rules. */
  sessionDoor: SessionDoor;
  /** Ends these sessions of the user (their refresh tokens and ID tokens stop working at once). */
  endSessions(uid: string, sessionIds: string[]): Promise<void>;
}

export function createIdentity(deps: {
  config: Config;
  database: Database;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  clock?: (() => number) | undefined;
}): Identity {
  const now = deps.clock ?? Date.now;
  const core = createIdentityCore({ ...deps, passwords: passwordHasher, now });
  const delivery = sessionDelivery(deps.config);
  return {
    routes: identityRoutes(core, deps.config),
    verifyIdToken: async (idToken) => toVerifiedUser((await core.verifyIdToken(idToken)).user),
    onUserDeleting: core.onUserDeleting,
    onSignIn: core.onSignIn,
    admin: core.operator,
    issueSession: core.issueSession,
    core,
    sessionDoor: createSessionDoor({ core, config: deps.config, rateLimiter: deps.rateLimiter, delivery, now }),
    endSessions: (uid, sessionIds) => createSessionsStore(deps.database.db).revokeSomeOfUser(uid, sessionIds),
  };
}
