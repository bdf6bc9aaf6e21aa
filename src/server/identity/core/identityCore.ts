import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { RateLimiter } from '../../rateLimit/rateLimiter.ts';
import {
  createAccountOperations,
  type ProfileChangedListener,
  type UserDeletingListener,
} from './accounts/accountOperations.ts';
import type { PhotoUrls } from './stores/photoUrls.ts';
import { createActionCodes } from './emailActions/actionCodes.ts';
import { createDeliveryTimingMask } from './emailActions/deliveryTimingMask.ts';
import { createEmailActions } from './emailActions/emailActions.ts';
import { createFederatedIdentitiesStore } from './stores/federatedIdentitiesStore.ts';
import { createFederatedSignIn, type AccountTakeoverListener } from './signIn/federatedSignIn.ts';
import { identityRateLimitRules } from './identityRateLimits.ts';
import { tokenIssuer } from './sessions/idTokens.ts';
import { createMemberOperations, type MemberChangedListener } from './members/memberOperations.ts';
import { createOobCodesStore } from './stores/oobCodesStore.ts';
import { createOperatorOperations } from './accounts/operatorOperations.ts';
import type { PasswordHasher } from './passwords/passwordHashing.ts';
import { createPendingSecondStepsStore } from './stores/pendingSecondSteps.ts';
import { createSessionIssuer } from './sessions/sessionIssuer.ts';
import { createSessionsStore } from './stores/sessionsStore.ts';
import { createSignInMethods, type SignInMethodCounter } from './signIn/signInMethods.ts';
import { createSigningKeys } from './stores/signingKeys.ts';
import { openSignUp, type SignUpGate } from './signIn/signUpGate.ts';
import { createSignInAttempts } from './signIn/signInAttempt.ts';
import { noSecondStepInstalled, type SecondStep, type SecondStepTools } from './signIn/secondStep.ts';
import { createRecentSignIn } from './sessions/recentSignIn.ts';
import { createUsersStore } from './stores/usersStore.ts';
import { createIdTokenVerifier } from './sessions/verifyIdToken.ts';

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
  const recentSignIn = createRecentSignIn(now, config.recentSignInSeconds);
  // The second step (two-step sign-in) is plugged in from outside through useSecondStep
  // (signIn/secondStep.ts); its factors go with the account, as deleted or taken over.
  let secondStep: SecondStep = noSecondStepInstalled;
  userDeletingListeners.push((uid, trx) => secondStep.removeAllOfUser(uid, trx));
  // When an address is claimed from someone who registered it first, every other way in ends:
  // provider links and the second step here, passkeys by their feature (addressClaims.ts).
  const takeoverListeners: AccountTakeoverListener[] = [
    (uid, trx) => federated.removeAllOfUser(uid, trx),
    (uid, trx) => secondStep.removeAllOfUser(uid, trx),
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
    recentSignIn,
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
    recentSignIn,
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
    recentSignIn,
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
    /** The one recent-sign-in rule (RECENT_SIGN_IN_SECONDS) for doors outside the core. */
    recentSignIn,
    /** The installed second step's enrolled factors (accounts:lookup's mfaInfo). */
    secondStep: { enrolled: (uid: string) => secondStep.enrolled(uid) },
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
     * The one sign-in attempt every way in goes through (signIn/signInAttempt.ts says how a
     * method plugs in): `attempt`, `completeSecondStep`.
     */
    signIns: {
      attempt: signIns.attempt,
      completeSecondStep: signIns.completeSecondStep,
    },

    /** What a second step gets of the core to work with (signIn/secondStep.ts). */
    secondStepTools: {
      issueSession: issuer.issue,
      endAllSessions: (uid, trx) => sessions.revokeAllOfUser(uid, trx),
      completeSecondStep: signIns.completeSecondStep,
      recentSignIn,
    } satisfies SecondStepTools,

    /**
     * Installs the second step (one: two-step sign-in, from createIdentity.ts): asked after
     * every first factor, and its factors go with a deleted or taken-over account.
     */
    useSecondStep(step: SecondStep): void {
      secondStep = step;
      signIns.useSecondStep(step);
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
export type { IssuedSession } from './sessions/sessionIssuer.ts';
export type { ProfileChangedListener, UserDeletingListener } from './accounts/accountOperations.ts';
export type { SecondFactorInfo, SecondStepPolicy, SignInOutcome, SignInResult } from './signIn/signInAttempt.ts';
export type { SecondStep, SecondStepTools } from './signIn/secondStep.ts';
export type { AdminUserView } from './accounts/operatorOperations.ts';
export {
  LastOwnerError,
  type MemberChange,
  type MemberChanged,
  type MemberChangedListener,
  type MemberCursor,
  type MemberRow,
} from './members/memberOperations.ts';
export type { SignUpAdmission, SignUpGate } from './signIn/signUpGate.ts';
export type { ImportedAccount, AccountImportCount } from './accounts/accountImport.ts';
export { checkBounds as checkFirebaseHashBounds, type FirebaseHashParameters } from './passwords/firebaseScrypt.ts';
export type { ProviderIdentity, FederatedSignInOutcome, AccountTakeoverListener } from './signIn/federatedSignIn.ts';
export type { FederatedIdentityRow } from './identityTables.ts';
export { IdentityError } from './identityErrors.ts';
export { IdTokenError, type VerifiedToken, type VerifiedUser } from './sessions/verifyIdToken.ts';
export { EmailTakenError } from './stores/usersStore.ts';
