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
  type SignUpGate,
} from './core/identityCore.ts';
import { passwordHasher } from './core/passwords/passwordHashing.ts';
import type { PhotoUrls } from './core/stores/photoUrls.ts';
import { toVerifiedUser } from './core/sessions/verifyIdToken.ts';
import { identityRoutes } from './protocol/identityRoutes.ts';
import { sessionDelivery } from './protocol/sessionDelivery.ts';
import { createSignInDoor, type SignInDoor } from './protocol/signInDoor.ts';
import { oauthRoutes } from './providers/oauthRoutes.ts';
import { createPendingSignIns } from './providers/pendingSignIns.ts';
import { createProviderRegistry } from './providers/providerRegistry.ts';
import { DEFAULT_KEY_REFRESH_COOLDOWN_MS } from './providers/relyingParty.ts';
import { signInWithIdpRoute } from './providers/signInWithIdpRoute.ts';
import { createTwoStep, type TwoStep } from './twoStep/twoStep.ts';
import { twoStepRoutes } from './twoStep/twoStepRoutes.ts';

export type { SignUpAdmission, SignUpGate } from './core/identityCore.ts';
export {
  EmailTakenError,
  IdentityError,
  LastOwnerError,
  type MemberRow,
  type MemberCursor,
  type MemberChange,
  type MemberChanged,
  type MemberChangedListener,
} from './core/identityCore.ts';
export { IdTokenError, type VerifiedUser, type SignInOutcome, type AdminUserView, type SignInDoor };
export type { PhotoUrls } from './core/stores/photoUrls.ts';
export type { ImportedAccount, AccountImportCount, FirebaseHashParameters } from './core/identityCore.ts';
export { checkFirebaseHashBounds } from './core/identityCore.ts';

/** The identity feature as the rest of the app sees it: the core and its doors. */
export interface Identity {
  /** The Identity Toolkit door, with every other sign-in door added by addDoor. Register with `{ prefix: '/identity' }`. */
  routes: FastifyPluginAsync;
  /**
   * The one ID token check for the rest of the app. Rejects with IdTokenError: bad
   * signature, unknown kid, wrong alg/aud/iss, expired, its session ended, disabled or deleted user.
   */
  verifyIdToken(idToken: string): Promise<VerifiedUser>;
  /** Runs inside the deleting transaction, before the users row goes. */
  onUserDeleting(listener: UserDeletingListener): void;
  /** Runs inside the transaction of a password sign-up, and of an accounts:update that changes the name or photo. */
  onProfileChanged: IdentityCore['onProfileChanged'];
  /** Called after every sign-in attempt, whatever its method (metrics); must not throw. */
  onSignIn(listener: (outcome: SignInOutcome) => void): void;
  /** Operator actions (the admin command's and the Firebase import's door). */
  admin: IdentityCore['operator'] & {
    /** Whether two-step sign-in is on for an account, and its unused recovery codes. */
    twoStepStatus: TwoStep['status'];
    /** Turns two-step off for someone who lost the device and the codes; ends their sessions. */
    resetTwoStep: TwoStep['reset'];
  };
  /** Accounts as the site's members (roles, disabling); the roles feature decides who may. */
  members: IdentityCore['members'];
  /** For sign-in doors besides the password (passkeys): tokens, and sign-in attempts by identity's rules. */
  signInDoor: SignInDoor;
  /** Adds another feature's sign-in routes inside the `/identity` scope (before `routes` is registered). */
  addDoor(routes: FastifyPluginAsync): void;
  /** A provider taking over an unverified account: other features' credentials go (passkeys). */
  onAccountTakenOver: IdentityCore['onAccountTakenOver'];
  /** Counts ways in held by other features (passkeys): the last way to sign in is never unlinked. */
  onCountingSignInMethods: IdentityCore['onCountingSignInMethods'];
  /** Ends these sessions of the user (their refresh tokens and ID tokens stop working at once). */
  endSessions(uid: string, sessionIds: string[]): Promise<void>;
}

export function createIdentity(deps: {
  config: Config;
  database: Database;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  clock?: (() => number) | undefined;
  signUpGate?: SignUpGate | undefined;
  /** How profile pictures are stored and answered (photoUrls.ts); default as given. */
  photoUrls?: PhotoUrls | undefined;
  /** How often a provider's keys may be fetched again for an unknown `kid` (tests shorten it). */
  providerKeyRefreshCooldownMs?: number | undefined;
}): Identity {
  const now = deps.clock ?? Date.now;
  const core = createIdentityCore({ ...deps, passwords: passwordHasher, now });
  const delivery = sessionDelivery(deps.config);
  // Two-step sign-in (TOTP) is the core's second step: made of what the core lends a second
  // step and plugged in through the seam it declares (core/signIn/secondStep.ts).
  const twoStep = createTwoStep({ ...deps, core: core.secondStepTools, now });
  core.useSecondStep(twoStep.secondStep);
  // OpenID Connect providers (OIDC_<ID>_*): accounts:signInWithIdp and the browser flow, doors of identity's own.
  const providers = createProviderRegistry({
    providers: deps.config.identityProviders,
    publicUrl: deps.config.publicUrl,
    keyRefreshCooldownMs: deps.providerKeyRefreshCooldownMs ?? DEFAULT_KEY_REFRESH_COOLDOWN_MS,
    now,
  });
  const doors: FastifyPluginAsync[] = [
    twoStepRoutes(twoStep, core.verifyIdToken, delivery),
    signInWithIdpRoute(core, providers, delivery),
    oauthRoutes({
      core,
      config: deps.config,
      providers,
      pending: createPendingSignIns(deps.database.db, now),
      rateLimiter: deps.rateLimiter,
    }),
  ];
  return {
    routes: identityRoutes(core, deps.config, delivery, doors),
    verifyIdToken: async (idToken) => toVerifiedUser(await core.verifyIdToken(idToken)),
    onUserDeleting: core.onUserDeleting,
    onProfileChanged: core.onProfileChanged,
    onSignIn: core.onSignIn,
    admin: { ...core.operator, twoStepStatus: twoStep.status, resetTwoStep: twoStep.reset },
    members: core.members,
    signInDoor: createSignInDoor({ core, delivery }),
    addDoor: (routes) => void doors.push(routes),
    onAccountTakenOver: core.onAccountTakenOver,
    onCountingSignInMethods: core.onCountingSignInMethods,
    endSessions: core.sessions.endSome,
  };
}
