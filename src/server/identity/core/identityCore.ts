import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { RateLimiter } from '../../rateLimit/rateLimiter.ts';
import {
  createAccountOperations,
  type ProfileChangedListener,
  type UserDeletingListener,
} from './accountOperations.ts';
import type { PhotoUrls } from './photoUrls.ts';
import { createActionCodes } from './actionCodes.ts';
import { createDeliveryTimingMask } from './deliveryTimingMask.ts';
import { createEmailActions } from './emailActions.ts';
import { createFederatedIdentitiesStore } from './federatedIdentitiesStore.ts';
import { createFederatedSignIn, type AccountTakeoverListener } from './federatedSignIn.ts';
import { identityRateLimitRules } from './identityRateLimits.ts';
import { tokenIssuer } from './idTokens.ts';
import { createMemberOperations, type MemberChangedListener } from './memberOperations.ts';
import { createOobCodesStore } from './oobCodesStore.ts';
import { createOperatorOperations } from './operatorOperations.ts';
import type { PasswordHasher } from './passwordHashing.ts';
import { createPendingSecondStepsStore } from './pendingSecondSteps.ts';
import { createSessionIssuer } from './sessionIssuer.ts';
import { createSessionsStore } from './sessionsStore.ts';
import { createSignInMethods, type SignInMethodCounter } from './signInMethods.ts';
import { createSigningKeys } from './signingKeys.ts';
import { openSignUp, type SignUpGate } from './signUpGate.ts';
import { createSignInAttempts } from './signInAttempt.ts';
import { createUsersStore } from './usersStore.ts';
import { createTwoStep } from '../twoStep/twoStep.ts';
import { createIdTokenVerifier } from './verifyIdToken.ts';

/**
 * The identity core: every account operation, whichever door it comes through (the Identity
 * Toolkit protocol, the admin command, passkeys, the Firebase import). It owns the identity
 * tables, its transactions and its rate-limit settlement, and answers with results or
 * IdentityError; it knows nothing of HTTP, cookies or request bodies.
 */
export function createIdentityCore(deps: {
  config: Config;
  database: Database;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  passwords: PasswordHasher;
  now: () => number;
  /** Who may sign up with which role; default: anyone, as an author. */
  signUpGate?: SignUpGate | undefined;
  /** How profile pictures are stored and answered (uploads here without their origin); default as given. */
  photoUrls?: PhotoUrls | undefined;
}) {
  const { config, database, now } = deps;
  const users = createUsersStore(database.db, deps.photoUrls);
  const sessions = createSessionsStore(database.db, deps.photoUrls);
  const oobCodes = createOobCodesStore(database.db);
  const keys = createSigningKeys(database.db, now);
  const federated = createFederatedIdentitiesStore(database.db);
  const issuer = createSessionIssuer({
    database,
    users,
    sessions,
    keys,
    federated,
    issuer: tokenIssuer(config.publicUrl),
    audience: config.projectId,
    now,
  });
  const rules = identityRateLimitRules(config.rateLimits);
  const userDeletingListeners: UserDeletingListener[] = [];
  const memberChangedListeners: MemberChangedListener[] = [];
  const profileChangedListeners: ProfileChangedListener[] = [];
  const signIns = createSignInAttempts({
    users,
    pending: createPendingSecondStepsStore(database.db),
    issuer,
    rateLimiter: deps.rateLimiter,
    rules,
    now,
  });
  // Two-step sign-in (TOTP): the second step of every sign-in attempt; its rows go with the account.
  const twoStep = createTwoStep({ ...deps, sessions, issuer, signIns, now });
  signIns.useSecondStep(twoStep.policy);
  userDeletingListeners.push((uid, trx) => twoStep.deleteByUser(uid, trx));
  // When an address is claimed from someone who registered it first, every other way in ends:
  // provider links and two-step here, passkeys by their feature (addressClaims.ts).
  const takeoverListeners: AccountTakeoverListener[] = [
    (uid, trx) => federated.removeAllOfUser(uid, trx),
    (uid, trx) => twoStep.deleteByUser(uid, trx),
  ];
  const actionCodes = createActionCodes({
    ...deps,
    users,
    sessions,
    oobCodes,
    rules,
    deliveryMask: createDeliveryTimingMask(),
    takeoverListeners,
    memberChangedListeners,
  });
  const emailActions = createEmailActions({
    ...deps,
    users,
    sessions,
    oobCodes,
    actionCodes,
    rules,
    memberChangedListeners,
  });
  const accounts = createAccountOperations({
    ...deps,
    users,
    sessions,
    oobCodes,
    federated,
    issuer,
    emailActions,
    rules,
    userDeletingListeners,
    profileChangedListeners,
    signIns,
    signUpGate: deps.signUpGate ?? openSignUp,
  });
  const members = createMemberOperations({ database, users, sessions, now, changedListeners: memberChangedListeners });
  const operator = createOperatorOperations({ ...deps, users, sessions, oobCodes, accounts, keys, members, federated });
  const signInMethodCounters: SignInMethodCounter[] = [];
  const federatedSignIn = createFederatedSignIn({
    ...deps,
    users,
    sessions,
    oobCodes,
    federated,
    signIns,
    rules,
    requireRecentSignIn: accounts.requireRecentSignIn,
    takeoverListeners,
    memberChangedListeners,
    signUpGate: deps.signUpGate ?? openSignUp,
    ownerEmail: config.ownerEmail,
  });
  const signInMethods = createSignInMethods({ database, users, federated, counters: signInMethodCounters });

  return {
    /** The ID token check: rejects with IdTokenError (its code is the protocol's). */
    verifyIdToken: createIdTokenVerifier({
      keys,
      sessions,
      issuer: tokenIssuer(config.publicUrl),
      audience: config.projectId,
      now,
    }),
    accounts,
    actionCodes,
    emailActions,
    operator,
    twoStep,
    /** Accounts as the site's members: roles and disabling (the members API and the admin command). */
    members,
    /** Signing in with OpenID Connect providers: the matching rules (federatedSignIn.ts). */
    federated: federatedSignIn,
    /** The ways into an account: linked providers, and removing one (never the last). */
    signInMethods,
    /** `endSome`: ends some of an account's sessions by id (a removed passkey's), the core's one store. */
    sessions: {
      refresh: issuer.refresh,
      signOut: issuer.signOut,
      endSome: (uid: string, sessionIds: string[]) => sessions.revokeSomeOfUser(uid, sessionIds),
    },
    /** The public signing keys (JWKS) and the start-up key check. */
    keys: { jwks: () => keys.jwks(), ready: async () => void (await keys.current()) },

    /**
     * The one sign-in attempt every way in goes through (signInAttempt.ts says how a method
     * and a second step plug in): `attempt`, `completeSecondStep`, `useSecondStep`.
     */
    signIns: {
      attempt: signIns.attempt,
      completeSecondStep: signIns.completeSecondStep,
      useSecondStep: signIns.useSecondStep,
    },

    /** An account as another door sees it (passkeys: whose credential a user handle names). */
    async findAccount(uid: string) {
      const user = await users.findById(uid);
      return user && { uid: user.id, email: user.email, displayName: user.display_name, disabled: user.disabled === 1 };
    },

    /** Runs inside the deleting transaction, before the users row goes (other features' data). */
    onUserDeleting(listener: UserDeletingListener): void {
      userDeletingListeners.push(listener);
    },
    /**
     * Runs inside the transaction of a password sign-up and of a profile change (display name or
     * photo) made through accounts:update: other features' data made from them (author slugs,
     * profile picture uses). Accounts made otherwise (providers, imports) get theirs when asked.
     */
    onProfileChanged(listener: ProfileChangedListener): void {
      profileChangedListeners.push(listener);
    },
    /** Called after every sign-in attempt, whatever its method (metrics); must not throw. */
    onSignIn: signIns.onSignIn,
    /**
     * Runs inside the transaction where an account is taken from whoever registered its address
     * first (a provider's takeover, a password reset claiming it): their passkeys go.
     */
    onAccountTakenOver(listener: AccountTakeoverListener): void {
      takeoverListeners.push(listener);
    },
    /** Counts ways into an account held by another feature (passkeys), so the last one is never removed. */
    onCountingSignInMethods(counter: SignInMethodCounter): void {
      signInMethodCounters.push(counter);
    },
  };
}

export type IdentityCore = ReturnType<typeof createIdentityCore>;
export type { IssuedSession } from './sessionIssuer.ts';
export type { ProfileChangedListener, UserDeletingListener } from './accountOperations.ts';
export type { SecondFactorInfo, SecondStepPolicy, SignInOutcome, SignInResult } from './signInAttempt.ts';
export type { AdminUserView } from './operatorOperations.ts';
export {
  LastOwnerError,
  type MemberChange,
  type MemberChanged,
  type MemberChangedListener,
  type MemberCursor,
  type MemberRow,
} from './memberOperations.ts';
export type { SignUpAdmission, SignUpGate } from './signUpGate.ts';
export type { ImportedAccount, AccountImportCount } from './accountImport.ts';
export { checkBounds as checkFirebaseHashBounds, type FirebaseHashParameters } from './firebaseScrypt.ts';
export type { ProviderIdentity, FederatedSignInOutcome, AccountTakeoverListener } from './federatedSignIn.ts';
export type { FederatedIdentityRow } from './identityTables.ts';
export { IdentityError } from './identityErrors.ts';
export { IdTokenError, type VerifiedToken, type VerifiedUser } from './verifyIdToken.ts';
export { EmailTakenError } from './usersStore.ts';
