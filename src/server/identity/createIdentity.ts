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
import { toVerifiedUser } from './core/verifyIdToken.ts';
import { passwordHasher } from './passwords.ts';
import { identityRoutes } from './protocol/identityRoutes.ts';
import { sessionDelivery } from './protocol/sessionDelivery.ts';
import { createSessionDoor, type SessionDoor } from './protocol/sessionDoor.ts';
import { oauthRoutes } from './providers/oauthRoutes.ts';
import { createPendingSignIns } from './providers/pendingSignIns.ts';
import { createProviderRegistry } from './providers/providerRegistry.ts';
import { DEFAULT_KEY_REFRESH_COOLDOWN_MS } from './providers/relyingParty.ts';
import { signInWithIdpRoute } from './providers/signInWithIdpRoute.ts';

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
}

export function createIdentity(deps: {
  config: Config;
  database: Database;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  clock?: (() => number) | undefined;
  /** How often a provider's keys may be fetched again for an unknown `kid` (tests shorten it). */
  providerKeyRefreshCooldownMs?: number | undefined;
}): Identity {
  const now = deps.clock ?? Date.now;
  const core = createIdentityCore({ ...deps, passwords: passwordHasher, now });
  const delivery = sessionDelivery(deps.config);
  // OpenID Connect providers (OIDC_<ID>_*): accounts:signInWithIdp and the browser flow.
  const providers = createProviderRegistry({
    providers: deps.config.identityProviders,
    publicUrl: deps.config.publicUrl,
    keyRefreshCooldownMs: deps.providerKeyRefreshCooldownMs ?? DEFAULT_KEY_REFRESH_COOLDOWN_MS,
    now,
  });
  const providerRoutes = (routesDelivery: typeof delivery) => [
    signInWithIdpRoute(core, providers, routesDelivery),
    oauthRoutes({
      core,
      config: deps.config,
      providers,
      pending: createPendingSignIns(deps.database.db, now),
      rateLimiter: deps.rateLimiter,
    }),
  ];
  return {
    routes: identityRoutes(core, deps.config, providerRoutes),
    verifyIdToken: async (idToken) => toVerifiedUser((await core.verifyIdToken(idToken)).user),
    onUserDeleting: core.onUserDeleting,
    onSignIn: core.onSignIn,
    admin: core.operator,
    issueSession: core.issueSession,
    core,
    sessionDoor: createSessionDoor({ core, config: deps.config, rateLimiter: deps.rateLimiter, delivery, now }),
  };
}
