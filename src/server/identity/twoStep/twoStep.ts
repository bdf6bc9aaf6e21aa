import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { RateLimiter, RateLimitRule } from '../../rateLimit/rateLimiter.ts';
import type { MfaInfo } from '../../../shared/twoStepProtocol.ts';
import { isTotpCodeShaped } from '../../../shared/twoStepProtocol.ts';
import { IdentityError } from '../core/identityErrors.ts';
import { consumeOrThrow, emailKey, type IdentityRateLimitRules } from '../core/identityRateLimits.ts';
import type { UserRow } from '../core/identityTables.ts';
import { newId, newOpaqueSecret } from '../core/opaqueSecrets.ts';
import type { Origin } from '../core/origin.ts';
import { requireRecentSignIn } from '../core/recentSignIn.ts';
import type { IssuedSession, SessionIssuer } from '../core/sessionIssuer.ts';
import type { SessionsStore } from '../core/sessionsStore.ts';
import type { UsersStore } from '../core/usersStore.ts';
import type { VerifiedToken } from '../core/verifyIdToken.ts';
import { isRecoveryCodeShaped, newRecoveryCodes } from './recoveryCodes.ts';
import { matchingStep, newTotpSecret } from './totpCodes.ts';
import { createTwoStepStore, type FactorRow } from './twoStepStore.ts';

const MINUTE = 60 * 1000;
/** How long a started enrollment may wait for its first code. */
export const ENROLLMENT_LIFETIME_MS = 10 * MINUTE;
/** How long a right password waits for its second step (DESIGN §8.4). */
export const PENDING_SIGN_IN_LIFETIME_MS = 5 * MINUTE;
/** Wrong codes a waiting sign-in (or an enrollment) survives; the next one ends it. */
export const WRONG_CODES_LIMIT = 5;
/** `firebase.sign_in_second_factor` of sessions a second step completed. */
export const SECOND_FACTOR_TOTP = 'totp';

/** A right password on an account with a factor: what the client gets instead of tokens. */
export interface SecondStepRequired {
  user: UserRow;
  mfaPendingCredential: string;
  mfaInfo: MfaInfo[];
}

export function mfaInfoOf(factor: FactorRow): MfaInfo {
  return {
    mfaEnrollmentId: factor.enrollment_id,
    ...(factor.display_name !== null ? { displayName: factor.display_name } : {}),
    enrolledAt: new Date(factor.enrolled_at).toISOString(),
    totpInfo: {},
  };
}

/**
 * Two-step sign-in with an authenticator app (TOTP, RFC 6238) and recovery codes: enrolling,
 * withdrawing, and the second step of a sign-in. Part of the identity core: it issues sessions
 * through the core's one issuer and counts wrong codes against the sign-in limits.
 */
export function createTwoStep(deps: {
  config: Config;
  database: Database;
  users: UsersStore;
  sessions: SessionsStore;
  issuer: SessionIssuer;
  rateLimiter: RateLimiter;
  rules: IdentityRateLimitRules;
  now: () => number;
}) {
  const { config, users, sessions, issuer, rateLimiter, rules, now } = deps;
  const store = createTwoStepStore(deps.database.db);
  const recent = (token: VerifiedToken) => requireRecentSignIn(token, now(), config.recentSignInSeconds);

  /** A code or a recovery code, checked against the account's factor; true once used up. */
  async function useCode(factor: FactorRow, code: string): Promise<boolean> {
    if (isTotpCodeShaped(code)) {
      const step = matchingStep(factor.secret, code, now());
      return step !== undefined && (await store.useStep(factor.user_id, step));
    }
    return isRecoveryCodeShaped(code) && (await store.useRecoveryCode(factor.user_id, code, now()));
  }

  return {
    /** The account's factor as the protocol shows it (lookup, sign-in answers), if any. */
    async mfaInfoOf(uid: string): Promise<MfaInfo[] | undefined> {
      const factor = await store.factorOf(uid);
      return factor && [mfaInfoOf(factor)];
    },

    /** mfaEnrollment:start: a new secret, kept with the enrollment until a code proves the app has it. */
    async startEnrollment(token: VerifiedToken) {
      recent(token);
      if (token.user.email_verified !== 1) throw new IdentityError('UNVERIFIED_EMAIL');
      if (await store.factorOf(token.user.id)) throw new IdentityError('SECOND_FACTOR_EXISTS');
      const secret = newTotpSecret();
      const sessionInfo = newOpaqueSecret();
      const at = now();
      const finalizeBy = at + ENROLLMENT_LIFETIME_MS;
      await store.saveEnrollment(sessionInfo, token.user.id, secret, finalizeBy, at);
      return { secret, sessionInfo, finalizeBy };
    },

    /**
     * mfaEnrollment:finalize: the app's first code turns two-step on. Answers a fresh session (the
     * caller's ends) and the ten recovery codes, which are never shown again.
     */
    async finalizeEnrollment(
      token: VerifiedToken,
      input: { sessionInfo: string; code: string; displayName?: string | undefined; replaces?: string | undefined },
    ): Promise<{ session: IssuedSession; recoveryCodes: string[] }> {
      recent(token);
      const enrollment = await store.findEnrollment(input.sessionInfo);
      if (!enrollment || enrollment.user_id !== token.user.id) throw new IdentityError('INVALID_SESSION_INFO');
      if (enrollment.expires_at < now()) throw new IdentityError('SESSION_EXPIRED');
      const step = isTotpCodeShaped(input.code) ? matchingStep(enrollment.secret, input.code, now()) : undefined;
      if (step === undefined) {
        await store.countWrongEnrollmentCode(input.sessionInfo, WRONG_CODES_LIMIT);
        throw new IdentityError('INVALID_CODE');
      }
      const recoveryCodes = newRecoveryCodes();
      const session = await issuer.issue(
        token.user,
        {
          authTime: token.authTime,
          provider: token.provider,
          secondFactor: SECOND_FACTOR_TOTP,
          replaces: input.replaces,
        },
        {
          first: async (trx) => {
            if (!(await store.takeEnrollment(input.sessionInfo, trx))) throw new IdentityError('INVALID_SESSION_INFO');
            const inserted = await store.insertFactor(
              {
                user_id: token.user.id,
                enrollment_id: newId(),
                display_name: input.displayName ? input.displayName : null,
                secret: enrollment.secret,
                enrolled_at: now(),
                // The confirming code is used: it cannot sign in a moment later.
                last_used_step: step,
              },
              trx,
            );
            if (!inserted) throw new IdentityError('SECOND_FACTOR_EXISTS');
            await store.insertRecoveryCodes(token.user.id, recoveryCodes, trx);
            await sessions.revokeById(token.sessionId, trx);
          },
        },
      );
      return { session, recoveryCodes };
    },

    /** mfaEnrollment:withdraw: turns two-step off and ends every other session of the account. */
    async withdraw(
      token: VerifiedToken,
      input: { enrollmentId: string; replaces?: string | undefined },
    ): Promise<IssuedSession> {
      recent(token);
      const factor = await store.factorOf(token.user.id);
      if (!factor || factor.enrollment_id !== input.enrollmentId) throw new IdentityError('MFA_ENROLLMENT_NOT_FOUND');
      return issuer.issue(
        token.user,
        { authTime: token.authTime, provider: token.provider, replaces: input.replaces },
        {
          first: async (trx) => {
            await store.removeAllOfUser(token.user.id, trx);
            await sessions.revokeAllOfUser(token.user.id, trx);
          },
        },
      );
    },

    /**
     * The hook of every first step (password; not passkeys, whose user verification is a second
     * factor already): when the account has a factor, the sign-in waits for a code instead of
     * getting a session.
     */
    async requireSecondStep(user: UserRow, provider: string): Promise<SecondStepRequired | undefined> {
      const factor = await store.factorOf(user.id);
      if (!factor) return undefined;
      const credential = newOpaqueSecret();
      const at = now();
      await store.savePendingSignIn(credential, user.id, provider, at + PENDING_SIGN_IN_LIFETIME_MS, at);
      return { user, mfaPendingCredential: credential, mfaInfo: [mfaInfoOf(factor)] };
    },

    /**
     * mfaSignIn:finalize: a code (or a recovery code) finishes a waiting sign-in. Each wrong code
     * counts against the account's sign-in failure limits; the fifth ends the waiting sign-in.
     */
    async finishSignIn(
      input: { credential: string; enrollmentId: string; code: string; replaces?: string | undefined },
      origin: Origin,
    ): Promise<IssuedSession> {
      const pending = await store.findPendingSignIn(input.credential);
      if (!pending || pending.expires_at < now()) throw new IdentityError('INVALID_MFA_PENDING_CREDENTIAL');
      const user = await users.findById(pending.user_id);
      if (!user) throw new IdentityError('INVALID_MFA_PENDING_CREDENTIAL');
      const account = emailKey(user.email);
      const perEmailAndIp: [RateLimitRule, string] = [rules.signInPerEmailAndIp, `${account}:${origin.ip}`];
      const perAccount: [RateLimitRule, string] = [rules.signInPerAccount, account];
      const perIp: [RateLimitRule, string] = [rules.signInPerIp, origin.ip];
      // Counted before the code is checked, as a password is: parallel guesses all count.
      await consumeOrThrow(rateLimiter, [perEmailAndIp, perAccount, perIp, [rules.signInAttemptsPerIp, origin.ip]]);
      const forgive = { reset: [perEmailAndIp], refund: [perAccount, perIp] };
      const factor = await store.factorOf(user.id);
      if (!factor || factor.enrollment_id !== input.enrollmentId) throw new IdentityError('MFA_ENROLLMENT_NOT_FOUND');
      if (!(await useCode(factor, input.code))) {
        await store.countWrongSignInCode(input.credential, WRONG_CODES_LIMIT);
        throw new IdentityError('INVALID_CODE');
      }
      if (user.disabled === 1) {
        await rateLimiter.settle(forgive);
        throw new IdentityError('USER_DISABLED');
      }
      const at = now();
      return issuer.issue(
        { ...user, last_login_at: at },
        { authTime: at, provider: pending.provider, secondFactor: SECOND_FACTOR_TOTP, replaces: input.replaces },
        {
          first: async (trx) => {
            // Works once: of two requests racing with good codes, one gets the session.
            if (!(await store.takePendingSignIn(input.credential, trx))) {
              throw new IdentityError('INVALID_MFA_PENDING_CREDENTIAL');
            }
            await users.update(user.id, { last_login_at: at }, trx);
          },
          last: (trx) => rateLimiter.settle(forgive, trx),
        },
      );
    },

    /** Whether two-step is on, and how many recovery codes are left (the admin command, the profile). */
    async status(uid: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
      const factor = await store.factorOf(uid);
      return { enabled: factor !== undefined, recoveryCodesLeft: factor ? await store.unusedRecoveryCodes(uid) : 0 };
    },

    /** Turns two-step off for someone who lost the device and the codes (operator); ends their sessions. */
    async reset(uid: string): Promise<boolean> {
      return deps.database.db.transaction().execute(async (trx) => {
        const removed = await store.removeAllOfUser(uid, trx);
        if (removed) await sessions.revokeAllOfUser(uid, trx);
        return removed;
      });
    },

    /** An account is being deleted: its two-step rows go in the same transaction. */
    deleteByUser: (uid: string, trx: Parameters<typeof store.removeAllOfUser>[1]) =>
      store.removeAllOfUser(uid, trx).then(() => undefined),
  };
}

export type TwoStep = ReturnType<typeof createTwoStep>;
