import type { Transaction } from 'kysely';
import type { DatabaseSchema } from '../../../db/schema.ts';
import type { RateLimiter } from '../../../rateLimit/rateLimiter.ts';
import { LinkTakenError, type FederatedIdentitiesStore } from '../stores/federatedIdentitiesStore.ts';
import { IdentityError } from '../identityErrors.ts';
import { consumeOrThrow, type IdentityRateLimitRules } from '../identityRateLimits.ts';
import type { FederatedIdentityRow, UserRow } from '../identityTables.ts';
import { tellRoleGranted, type MemberChangedListener } from '../members/memberOperations.ts';
import type { OobCodesStore } from '../stores/oobCodesStore.ts';
import { newId } from '../opaqueSecrets.ts';
import type { Origin } from '../origin.ts';
import type { IssuedSession } from '../sessions/sessionIssuer.ts';
import type { ProvenFactor, SignInAttempts, SignInResult } from './signInAttempt.ts';
import type { SessionsStore } from '../stores/sessionsStore.ts';
import { EmailTakenError, type UsersStore } from '../stores/usersStore.ts';
import { claimChanges } from '../members/addressClaims.ts';
import type { SignUpGate } from './signUpGate.ts';
import { initialValidSince, validSinceAfterChange } from '../validSince.ts';
import type { RecentSignIn } from '../sessions/recentSignIn.ts';
import type { VerifiedToken } from '../sessions/verifyIdToken.ts';

/** A person as an OpenID provider vouched for them in a verified ID token. */
export interface ProviderIdentity {
  providerId: string;
  /** The token's `sub`. */
  subject: string;
  /** Normalised; undefined when the provider shared none. */
  email: string | undefined;
  /** The provider asserts the address is theirs (`email_verified: true`). */
  emailVerified: boolean;
  displayName: string | null;
  photoUrl: string | null;
}

/** Runs inside the transaction that takes an unverified account over (other features' credentials: passkeys). */
export type AccountTakeoverListener = (uid: string, trx: Transaction<DatabaseSchema>) => Promise<void>;

export type FederatedSignInOutcome =
  | { kind: 'session'; session: IssuedSession; identity: ProviderIdentity; isNewUser: boolean }
  /** The account needs its second step (two-step sign-in): no session yet. */
  | {
      kind: 'pendingSecondStep';
      result: Extract<SignInResult, { kind: 'pendingSecondStep' }>;
      identity: ProviderIdentity;
    }
  /** An account holds the address and the provider may not take it over: sign in there first, then link. */
  | { kind: 'needConfirmation'; identity: ProviderIdentity; email: string };

/** Rule 3's refusal to sign in: an account holds the address (counted and heard as EMAIL_EXISTS). */
class NeedsConfirmation extends IdentityError {
  readonly email: string;
  constructor(email: string) {
    super('EMAIL_EXISTS');
    this.email = email;
  }
}

export interface FederatedSignInRequest {
  /** The provider id (the sessions' `firebase.sign_in_provider`). */
  providerId: string;
  /** Verifies the provider's answer (its ID token); called after the attempt is counted. */
  verify: () => Promise<ProviderIdentity>;
  /**
   * Rule 2: link to this signed-in account: accounts:signInWithIdp's `idToken` (its sign-in must be
   * recent), or the account a browser flow started for (Connect on the profile; the door checked
   * the recent sign-in when the flow started, minutes ago).
   */
  linkTo?: { token: VerifiedToken } | { uid: string } | undefined;
  /** false (a re-authentication): never creates an account; no match answers USER_NOT_FOUND. */
  autoCreate: boolean;
  /** The refresh token of the browser session this one replaces, if any. */
  replaces?: string | undefined;
}

/**
 * Signing in with an OpenID Connect provider: the matching rules of docs/architecture.md
 * (Signing in with a provider), in order: (1) a linked identity signs in to its account; (2) with
 * a signed-in account, the identity is linked to it; (3) an account with the same address is
 * taken over when the provider verified the address and the account never did, else the answer
 * is needConfirmation; (4) else a new account (createAccountFromProvider, the one place).
 * Each is one sign-in attempt of the core (signInAttempt.ts): its limits, disabled accounts,
 * second step and session; the rule's writes go into the session's transaction.
 */
export function createFederatedSignIn(deps: {
  users: UsersStore;
  sessions: SessionsStore;
  oobCodes: OobCodesStore;
  federated: FederatedIdentitiesStore;
  signIns: SignInAttempts;
  rateLimiter: RateLimiter;
  rules: IdentityRateLimitRules;
  recentSignIn: RecentSignIn;
  takeoverListeners: AccountTakeoverListener[];
  /** Told when a provider's verified address grants the role bound to it (the audit log). */
  memberChangedListeners: MemberChangedListener[];
  /** The sign-up policy (SIGNUP, NEW_ACCOUNT_ROLE, invitations), as accounts:signUp applies it. */
  signUpGate: SignUpGate;
  /** OWNER_EMAIL: an account whose address a provider verifies as this one becomes owner. */
  ownerEmail: string | undefined;
  now: () => number;
}) {
  const { users, sessions, federated, rateLimiter, rules } = deps;

  const linkRow = (identity: ProviderIdentity, uid: string, at: number): FederatedIdentityRow => ({
    provider_id: identity.providerId,
    subject: identity.subject,
    user_id: uid,
    email: identity.email ?? null,
    display_name: identity.displayName,
    photo_url: identity.photoUrl,
    created_at: at,
  });

  /** The account rule 2 links to, as it is now. */
  async function linkTarget(linkTo: NonNullable<FederatedSignInRequest['linkTo']>): Promise<UserRow> {
    if ('token' in linkTo) {
      deps.recentSignIn.require(linkTo.token);
      return linkTo.token.user;
    }
    const user = await users.findById(linkTo.uid);
    if (!user) throw new IdentityError('USER_NOT_FOUND');
    return user;
  }

  /**
   * Rule 3, first half: the provider verified an address the account never proved. Whoever
   * registered it first may not be its owner (Firebase's rule): the password, passkeys and other
   * provider links go, every session and emailed code ends, the address counts as claimed (a
   * role bound to it is granted), and the identity is linked. Nothing is written unless the
   * sign-in completes: an account that would need a second step is not taken over (the person
   * signs in to it first, or resets its password, then links).
   */
  function takeOver(user: UserRow, identity: ProviderIdentity): ProvenFactor {
    const at = deps.now();
    const changes = {
      password_hash: '',
      ...claimChanges(user, deps.ownerEmail),
      valid_since: validSinceAfterChange(at, user.valid_since),
      ...(identity.displayName !== null ? { display_name: identity.displayName } : {}),
      ...(identity.photoUrl !== null ? { photo_url: identity.photoUrl } : {}),
    };
    return {
      user: { ...user, ...changes },
      writes: async (trx) => {
        await users.update(user.id, changes, trx);
        await tellRoleGranted(deps.memberChangedListeners, user, { ...user, ...changes }, trx);
        await sessions.revokeAllOfUser(user.id, trx);
        await deps.oobCodes.revokeAllOfUser(user.id, trx);
        for (const listener of deps.takeoverListeners) await listener(user.id, trx);
        await federated.insert(linkRow(identity, user.id, at), trx);
      },
      refuseSecondStep: () => new NeedsConfirmation(user.email),
    };
  }

  /**
   * Rule 2: links the identity to the signed-in account. Only an account whose address is
   * verified takes a link, unless the provider verified that very address (then the account
   * claims it): a link added by whoever registered an address first would outlive its owner's
   * password reset.
   */
  function link(target: UserRow, identity: ProviderIdentity): ProvenFactor {
    const row = linkRow(identity, target.id, deps.now());
    const provesAddress = identity.emailVerified && identity.email === target.email;
    if (target.email_verified !== 1 && !provesAddress) throw new IdentityError('UNVERIFIED_EMAIL');
    const changes = provesAddress && target.address_claimed === 0 ? claimChanges(target, deps.ownerEmail) : undefined;
    return {
      user: { ...target, ...changes },
      writes: async (trx) => {
        if (changes) {
          await users.update(target.id, changes, trx);
          await tellRoleGranted(deps.memberChangedListeners, target, { ...target, ...changes }, trx);
        }
        await federated.insert(row, trx);
      },
    };
  }

  /**
   * Rule 4: a new account for a person the provider vouched for. THE one place an account is
   * created through a provider: the sign-up policy (SIGNUP, NEW_ACCOUNT_ROLE) applies here as
   * accounts:signUp applies it to password sign-ups (ADMIN_ONLY_OPERATION when closed or
   * invitation-only: an invitation is used through the sign-up form).
   */
  async function createAccountFromProvider(
    identity: ProviderIdentity & { email: string },
    origin: Origin,
  ): Promise<ProvenFactor> {
    const admission = await deps.signUpGate.admit({ email: identity.email });
    await consumeOrThrow(rateLimiter, [[rules.signUpPerIp, origin.ip]]);
    const at = deps.now();
    const user: UserRow = {
      id: newId(21),
      email: identity.email,
      // No password: '' lets nothing in (passwordHashing.ts); one can be set through a reset.
      password_hash: '',
      display_name: identity.displayName,
      photo_url: identity.photoUrl,
      email_verified: 0,
      role: admission.role,
      disabled: 0,
      created_at: at,
      last_login_at: at,
      password_updated_at: at,
      valid_since: initialValidSince(at),
      address_claimed: 0,
      claimable_role: admission.claimableRole ?? null,
    };
    // The provider vouched for the address: the new account has claimed it (and its bound role).
    if (identity.emailVerified) Object.assign(user, claimChanges(user, deps.ownerEmail));
    return {
      user,
      writes: async (trx) => {
        await users.insert(user, trx);
        await admission.claim?.(user.id, trx);
        await federated.insert(linkRow(identity, user.id, at), trx);
      },
    };
  }

  /** The rules, in order: which account the verified identity signs in to, and the writes that takes. */
  async function match(
    identity: ProviderIdentity,
    request: FederatedSignInRequest,
    origin: Origin,
  ): Promise<ProvenFactor & { isNewUser: boolean }> {
    const target = request.linkTo && (await linkTarget(request.linkTo));
    const linked = await federated.find(identity.providerId, identity.subject);
    if (linked) {
      if (target && target.id !== linked.user_id) throw new IdentityError('FEDERATED_USER_ID_ALREADY_LINKED');
      const refresh = linkRow(identity, linked.user_id, deps.now());
      return { uid: linked.user_id, writes: (trx) => federated.refresh(refresh, trx), isNewUser: false };
    }
    if (target) return { ...link(target, identity), isNewUser: false };
    if (identity.email === undefined) {
      throw new IdentityError('INVALID_IDP_RESPONSE', { detail: 'The provider did not share an email address.' });
    }
    const holder = await users.findByEmail(identity.email);
    if (holder) {
      if (identity.emailVerified && holder.email_verified === 0)
        return { ...takeOver(holder, identity), isNewUser: false };
      throw new NeedsConfirmation(holder.email);
    }
    if (!request.autoCreate) throw new IdentityError('USER_NOT_FOUND');
    return { ...(await createAccountFromProvider({ ...identity, email: identity.email }, origin)), isNewUser: true };
  }

  async function attemptOnce(request: FederatedSignInRequest, origin: Origin): Promise<FederatedSignInOutcome> {
    let identity: ProviderIdentity | undefined;
    let isNewUser = false;
    try {
      const result = await deps.signIns.attempt(
        {
          provider: request.providerId,
          // The account is known only once the provider's answer is verified.
          account: undefined,
          check: async () => {
            identity = await request.verify();
            const proven = await match(identity, request, origin);
            isNewUser = proven.isNewUser;
            return proven;
          },
        },
        { origin, replaces: request.replaces },
      );
      if (result.kind === 'pendingSecondStep') return { kind: 'pendingSecondStep', result, identity: identity! };
      return { kind: 'session', session: result.session, identity: identity!, isNewUser };
    } catch (error) {
      if (error instanceof NeedsConfirmation)
        return { kind: 'needConfirmation', identity: identity!, email: error.email };
      // The identity was free when matched: the account has another of this provider's.
      if (error instanceof LinkTakenError && request.linkTo && identity) {
        const raced = await federated.find(identity.providerId, identity.subject);
        if (!raced) throw new IdentityError('PROVIDER_ALREADY_LINKED');
      }
      throw error;
    }
  }

  return {
    async signIn(request: FederatedSignInRequest, origin: Origin): Promise<FederatedSignInOutcome> {
      try {
        return await attemptOnce(request, origin);
      } catch (error) {
        // Two first sign-ins of one person at once: the loser finds what the winner made.
        if (!(error instanceof LinkTakenError || error instanceof EmailTakenError)) throw error;
        return attemptOnce(request, origin).catch((again: unknown) => {
          if (again instanceof LinkTakenError) throw new IdentityError('FEDERATED_USER_ID_ALREADY_LINKED');
          if (again instanceof EmailTakenError) throw new IdentityError('EMAIL_EXISTS');
          throw again;
        });
      }
    },
  };
}

export type FederatedSignIn = ReturnType<typeof createFederatedSignIn>;
