/**
 * The one sign-in attempt. Every way in (password, passkey, identity provider, and the second
 * step after any of them) ends here, as PocketBase's auth methods all end in one
 * RecordAuthResponse: the limits, the forgiving of failures, disabled accounts, the second step
 * and the session are decided in this file and nowhere else.
 *
 * ## Adding a sign-in method (an identity provider, say)
 *
 * The method's door (its routes, inside the `/identity` scope) calls `attempt()`:
 *
 *     signIns.attempt({
 *       provider: 'oidc.example',          // the ID tokens' firebase.sign_in_provider
 *       account: email,                    // normalized email when known before checking, else undefined
 *       check: async () => ({ uid }),      // verify the credential; throw IdentityError to refuse
 *     }, { origin, replaces })
 *
 * 1. The attempt is counted first (per IP always; per account and per account+IP when `account`
 *    is given), so parallel guesses cannot slip past a check that has not finished.
 * 2. `check()` proves the first factor and names the account (`uid`, or the core's `user` row), with any writes to make
 *    in the session's own transaction (`writes`: the password's re-hash, a provider's link).
 *    A refusal is an IdentityError thrown from `check()`; it stays counted.
 * 3. A proven first factor forgives this client's earlier failures on the account; a disabled
 *    account is refused (USER_DISABLED) after that, so the answer reveals nothing to a guesser.
 * 4. The second-step policy is asked whether the account needs another factor (below).
 * 5. Otherwise the session is issued (`sessionIssuer.issue`), the sign-in time recorded, the
 *    replaced browser session ended, all in one transaction with the counters' settlement.
 * Listeners (`onSignIn`: metrics) hear every attempt's outcome with its provider.
 *
 * A door knowing only a uid (passkeys) reaches this through the protocol's sign-in door
 * (`protocol/signInDoor.ts`), which loads the account and answers in the protocol's JSON.
 *
 * ## The second step (two-step sign-in)
 *
 * `useSecondStep(policy)` installs a `SecondStepPolicy`: the core's `useSecondStep` passes on
 * the second step the composition plugs in (`secondStep.ts`). After the first factor, the attempt
 * calls `policy.required(user, provider)`: `null` means no second step; a list of factors means
 * the attempt answers `{ kind: 'pendingSecondStep' }` instead of a session: an opaque
 * `pendingCredential` (Firebase's `mfaPendingCredential`; only its hash is stored, in
 * `identity_pending_second_steps`, for PENDING_SECOND_STEP_LIFETIME_MS) and the factors to offer
 * (Firebase's `mfaInfo`). No session exists yet; the first factor's failures are forgiven.
 *
 * The second factor's door (e.g. `accounts/mfaSignIn:finalize`) then calls
 * `completeSecondStep({ pendingCredential, check: async (user) => ({ factor: 'totp' }) }, ...)`:
 * it is counted like a first factor on the account, `check(user)` verifies the code (throw
 * IdentityError to refuse; the pending credential stays usable until it expires, as Firebase's),
 * and a success issues the session with the first factor's provider, using the pending
 * credential up in the same transaction (so it works once).
 */
import type { Transaction } from 'kysely';
import type { DatabaseSchema } from '../../../db/schema.ts';
import type { RateLimiter, RateLimitRule } from '../../../rateLimit/rateLimiter.ts';
import { IdentityError } from '../identityErrors.ts';
import { consumeOrThrow, emailKey, type IdentityRateLimitRules } from '../identityRateLimits.ts';
import type { UserRow } from '../identityTables.ts';
import type { Origin } from '../origin.ts';
import type { PendingSecondStepsStore } from '../stores/pendingSecondSteps.ts';
export { PENDING_SECOND_STEP_LIFETIME_MS } from '../stores/pendingSecondSteps.ts';
import type { IssuedSession, SessionIssuer } from '../sessions/sessionIssuer.ts';
import type { UsersStore } from '../stores/usersStore.ts';
import { IdTokenError } from '../sessions/verifyIdToken.ts';

type Trx = Transaction<DatabaseSchema>;

/**
 * What a door's check proved: the account (its row, or its uid for a door outside the core,
 * which the attempt then reads), and writes to make in the session's transaction.
 */
export type ProvenFactor = ({ user: UserRow } | { uid: string }) & {
  writes?: ((trx: Trx) => Promise<void>) | undefined;
  /**
   * For writes that may only happen with a session (a provider's takeover): when the account
   * needs a second step, the attempt throws this instead, having written nothing.
   */
  refuseSecondStep?: (() => Error) | undefined;
};

export interface FirstFactor {
  /** The ID tokens' `firebase.sign_in_provider`: 'password', 'passkey', 'google.com', 'oidc.x'. */
  provider: string;
  /** The account's normalized email when the door knows it before checking (counts the per-account limits). */
  account: string | undefined;
  /** Verifies the credential; throws IdentityError to refuse. Runs after the attempt is counted. */
  check(): Promise<ProvenFactor>;
}

/** A second factor an account has enrolled, as the pending answer offers it. */
export interface SecondFactorInfo {
  /** The enrollment's id, which the completing door names. */
  enrollmentId: string;
  /** 'totp', … */
  kind: string;
  displayName: string | null;
  /** Epoch ms. */
  enrolledAt: number;
}

/** Decides whether an account needs a second step after a first factor (installed by the two-step feature). */
export interface SecondStepPolicy {
  /** The factors to offer, or null when this sign-in needs no second step. Must not throw for an ordinary account. */
  required(user: UserRow, provider: string): Promise<SecondFactorInfo[] | null>;
}

/** What a sign-in ends in: a session, or a second step to make first. */
export type SignInResult =
  | { kind: 'session'; session: IssuedSession }
  | { kind: 'pendingSecondStep'; user: UserRow; pendingCredential: string; factors: SecondFactorInfo[] };

/** What listeners hear after every attempt (metrics); `code` is the refusal's. */
export type SignInOutcome = { ok: true; provider: string } | { ok: false; provider: string; code: string };

export interface AttemptContext {
  origin: Origin;
  /** The refresh token of the browser session the new one replaces (its cookie), if any. */
  replaces?: string | undefined;
}

const noSecondStep: SecondStepPolicy = { required: async () => null };

export function createSignInAttempts(deps: {
  users: UsersStore;
  pending: PendingSecondStepsStore;
  issuer: SessionIssuer;
  rateLimiter: RateLimiter;
  rules: IdentityRateLimitRules;
  now: () => number;
}) {
  const { rateLimiter, rules, users } = deps;
  const listeners: ((outcome: SignInOutcome) => void)[] = [];
  let secondStep = noSecondStep;

  /** The counters one attempt on `account` (normalized email, if known) from `ip` uses. */
  function countersOf(account: string | undefined, ip: string) {
    const key = account === undefined ? undefined : emailKey(account);
    const perEmailAndIp: [RateLimitRule, string][] =
      key === undefined ? [] : [[rules.signInPerEmailAndIp, `${key}:${ip}`]];
    const perAccount: [RateLimitRule, string][] = key === undefined ? [] : [[rules.signInPerAccount, key]];
    const perIp: [RateLimitRule, string] = [rules.signInPerIp, ip];
    const attemptsPerIp: [RateLimitRule, string] = [rules.signInAttemptsPerIp, ip];
    return {
      counted: [...perEmailAndIp, ...perAccount, perIp, attemptsPerIp],
      // Those limits are on failures: the right credential clears this client's earlier typos on
      // the account and uses up neither the account's nor the address's allowance. Guesses
      // others made on the account stay counted; the attempt still counts in attemptsPerIp.
      forgive: { reset: perEmailAndIp, refund: [...perAccount, perIp] },
    };
  }

  /** Runs `body`, telling the listeners how it ended. */
  async function reported<T>(provider: string, body: () => Promise<T>): Promise<T> {
    try {
      const result = await body();
      for (const listener of listeners) listener({ ok: true, provider });
      return result;
    } catch (error) {
      const code = error instanceof IdentityError || error instanceof IdTokenError ? error.code : 'INTERNAL_ERROR';
      for (const listener of listeners) listener({ ok: false, provider, code });
      throw error;
    }
  }

  /** Issues the session for a proven sign-in, settling the counters in its transaction. */
  function issue(
    user: UserRow,
    provider: string,
    context: AttemptContext,
    forgive: ReturnType<typeof countersOf>['forgive'],
    writes: ((trx: Trx) => Promise<void>) | undefined,
    secondFactor?: { factor: string; identifier?: string | undefined },
  ): Promise<IssuedSession> {
    const now = deps.now();
    return deps.issuer.issue(
      { ...user, last_login_at: now },
      {
        authTime: now,
        provider,
        secondFactor: secondFactor?.factor,
        secondFactorId: secondFactor?.identifier,
        replaces: context.replaces,
      },
      {
        first: async (trx) => {
          if (writes) await writes(trx);
          await users.update(user.id, { last_login_at: now }, trx);
        },
        // Last, so the counters' rows (shared by every sign-in from this address) stay locked
        // only until the commit right after; settle() takes them in the order consumes do.
        last: (trx) => rateLimiter.settle(forgive, trx),
      },
    );
  }

  return {
    /** One sign-in with a first factor: see the top of this file. */
    attempt(factor: FirstFactor, context: AttemptContext): Promise<SignInResult> {
      return reported(factor.provider, async () => {
        const { counted, forgive } = countersOf(factor.account, context.origin.ip);
        // Counted before the credential is checked (all counters in one statement).
        await consumeOrThrow(rateLimiter, counted);
        const proven = await factor.check();
        const user = 'user' in proven ? proven.user : await users.findById(proven.uid);
        if (!user) throw new IdentityError('USER_NOT_FOUND');
        if (user.disabled === 1) {
          await rateLimiter.settle(forgive);
          throw new IdentityError('USER_DISABLED');
        }
        const factors = await secondStep.required(user, factor.provider);
        if (factors !== null && proven.refuseSecondStep) throw proven.refuseSecondStep();
        if (factors !== null) {
          // The first factor is proven: this attempt is refunded, and its writes (a re-hash) are
          // made now, since they do not depend on the second step. Nothing is reset: wrong codes
          // counted on the account stay counted until a right one, else a known password would
          // wipe the code limit every fifth guess (decision 0320).
          const refundOnly = { reset: [], refund: [...forgive.reset, ...forgive.refund] };
          const pendingCredential = await deps.pending.create(user.id, factor.provider, deps.now(), async (trx) => {
            if (proven.writes) await proven.writes(trx);
            await rateLimiter.settle(refundOnly, trx);
          });
          return { kind: 'pendingSecondStep' as const, user, pendingCredential, factors };
        }
        return {
          kind: 'session' as const,
          session: await issue(user, factor.provider, context, forgive, proven.writes),
        };
      });
    },

    /**
     * Finishes a sign-in that answered `pendingSecondStep`: `check(user)` verifies the second
     * factor (throw IdentityError to refuse). INVALID_MFA_PENDING_CREDENTIAL for an unknown,
     * used or expired pending credential.
     */
    async completeSecondStep(
      input: {
        pendingCredential: string;
        /** The factor ('totp') and its enrollment id (the ID tokens' second_factor_identifier). */
        check(user: UserRow): Promise<{ factor: string; identifier?: string | undefined }>;
      },
      context: AttemptContext,
    ): Promise<IssuedSession> {
      const pending = await deps.pending.find(input.pendingCredential, deps.now());
      const user = pending && (await users.findById(pending.user_id));
      return reported(pending?.provider ?? 'unknown', async () => {
        const { counted, forgive } = countersOf(user?.email, context.origin.ip);
        await consumeOrThrow(rateLimiter, counted);
        if (!pending || !user) throw new IdentityError('INVALID_MFA_PENDING_CREDENTIAL');
        const secondFactor = await input.check(user);
        if (user.disabled === 1) {
          await rateLimiter.settle(forgive);
          throw new IdentityError('USER_DISABLED');
        }
        return issue(
          user,
          pending.provider,
          context,
          forgive,
          async (trx) => {
            // Used up with the session: a second use (a replay, a double click) finds nothing.
            if (!(await deps.pending.use(input.pendingCredential, trx))) {
              throw new IdentityError('INVALID_MFA_PENDING_CREDENTIAL');
            }
          },
          secondFactor,
        ); // the ID tokens' firebase.sign_in_second_factor and second_factor_identifier
      });
    },

    /** Installs the second-step policy (one; the two-step feature's). */
    useSecondStep(policy: SecondStepPolicy): void {
      secondStep = policy;
    },

    /** Called after every sign-in attempt, whatever its method (metrics); must not throw. */
    onSignIn(listener: (outcome: SignInOutcome) => void): void {
      listeners.push(listener);
    },
  };
}

export type SignInAttempts = ReturnType<typeof createSignInAttempts>;
