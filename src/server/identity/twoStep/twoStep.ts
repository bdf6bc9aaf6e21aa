import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { isTotpCodeShaped } from '../../../shared/twoStepProtocol.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { RateLimiter, RateLimitRule } from '../../rateLimit/rateLimiter.ts';
import { sendInBackground } from '../core/emailActions/backgroundMail.ts';
import { secondStepFailuresNotice } from '../core/emailActions/identityEmails.ts';
import { IdentityError } from '../core/identityErrors.ts';
import type { Origin } from '../core/origin.ts';
import type { UserRow } from '../core/identityTables.ts';
import { newId, newOpaqueSecret } from '../core/opaqueSecrets.ts';
import type { IssuedSession } from '../core/sessions/sessionIssuer.ts';
import type { SecondStep, SecondStepTools } from '../core/signIn/secondStep.ts';
import {
  PENDING_SECOND_STEP_LIFETIME_MS,
  type AttemptContext,
  type SecondFactorInfo,
} from '../core/signIn/signInAttempt.ts';
import type { VerifiedToken } from '../core/sessions/verifyIdToken.ts';
import { isRecoveryCodeShaped, newRecoveryCodes } from './recoveryCodes.ts';
import { matchingStep, newTotpSecret } from './totpCodes.ts';
import { createTwoStepStore, type FactorRow } from './twoStepStore.ts';

const MINUTE = 60 * 1000;
/** How long a started enrollment may wait for its first code. */
export const ENROLLMENT_LIFETIME_MS = 10 * MINUTE;
/** Wrong codes a waiting sign-in (or an enrollment) survives; the next one ends it. */
export const WRONG_CODES_LIMIT = 5;
/** The mail about a sign-in stopped by wrong codes: once an hour per account at most. */
const WRONG_CODES_NOTICE_RULE: RateLimitRule = { name: 'twoStep:wrongCodesNotice', limit: 1, windowMs: 60 * MINUTE };
/** `firebase.sign_in_second_factor` of sessions a second step completed. */
export const SECOND_FACTOR_TOTP = 'totp';

/** An enrolled factor as the core's sign-in attempt offers it. */
function secondFactorOf(factor: FactorRow): SecondFactorInfo {
  return {
    enrollmentId: factor.enrollment_id,
    kind: SECOND_FACTOR_TOTP,
    displayName: factor.display_name,
    enrolledAt: factor.enrolled_at,
  };
}

/**
 * Two-step sign-in with an authenticator app (TOTP, RFC 6238) and recovery codes: enrolling,
 * withdrawing, and the second step of a sign-in. The core's second step (`secondStep`, which
 * createIdentity.ts installs): it issues and ends sessions with what the core lends it
 * (`SecondStepTools`) and counts wrong codes against the sign-in limits.
 */
export function createTwoStep(deps: {
  config: Config;
  database: Database;
  core: SecondStepTools;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  now: () => number;
}) {
  const { config, now } = deps;
  const { issueSession, endAllSessions, recentSignIn } = deps.core;
  const store = createTwoStepStore(deps.database.db);
  const recent = (token: VerifiedToken) => recentSignIn.require(token);

  /** A code or a recovery code, checked against the account's factor; true once used up. */
  async function useCode(factor: FactorRow, code: string): Promise<boolean> {
    if (isTotpCodeShaped(code)) {
      const step = matchingStep(factor.secret, code, now());
      return step !== undefined && (await store.useStep(factor.user_id, step));
    }
    return isRecoveryCodeShaped(code) && (await store.useRecoveryCode(factor.user_id, code, now()));
  }

  /**
   * A pending sign-in ended on its last wrong code: someone holds the password. The holder is
   * told by mail, at most once an hour (decision 0552); the mail is sent without holding up the answer.
   */
  async function tellOfWrongCodes(user: UserRow, origin: Origin): Promise<void> {
    const allowed = await deps.rateLimiter.consume(WRONG_CODES_NOTICE_RULE, user.id);
    if (!allowed.allowed) return;
    const notice = secondStepFailuresNotice({
      to: user.email,
      publicUrl: config.publicUrl,
      siteTitle: config.site.title,
    });
    sendInBackground(deps.mailer, origin.log, notice, 'two-step failures notice');
  }

  return {
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
      const enrollmentId = newId();
      const session = await issueSession(
        token.user,
        {
          authTime: token.authTime,
          provider: token.provider,
          secondFactor: SECOND_FACTOR_TOTP,
          secondFactorId: enrollmentId,
          replaces: input.replaces,
        },
        {
          first: async (trx) => {
            if (!(await store.takeEnrollment(input.sessionInfo, trx))) throw new IdentityError('INVALID_SESSION_INFO');
            const inserted = await store.insertFactor(
              {
                user_id: token.user.id,
                enrollment_id: enrollmentId,
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
            // Every other device signs in again, with the second step (decision 0552): two-step
            // is often turned on because a password is feared known.
            await endAllSessions(token.user.id, trx);
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
      return issueSession(
        token.user,
        { authTime: token.authTime, provider: token.provider, replaces: input.replaces },
        {
          first: async (trx) => {
            await store.removeAllOfUser(token.user.id, trx);
            await endAllSessions(token.user.id, trx);
          },
        },
      );
    },

    /**
     * The core's second step (installed by createIdentity.ts), asked after every first factor:
     * an account with a factor waits for a code. A passkey needs none: its user verification
     * (PIN or biometrics on the device) is a second factor already.
     */
    secondStep: {
      async required(user: UserRow, provider: string): Promise<SecondFactorInfo[] | null> {
        if (provider === 'passkey') return null;
        const factor = await store.factorOf(user.id);
        return factor ? [secondFactorOf(factor)] : null;
      },
      async enrolled(uid: string): Promise<SecondFactorInfo[]> {
        const factor = await store.factorOf(uid);
        return factor ? [secondFactorOf(factor)] : [];
      },
      // An account deleted or taken over: its two-step rows go in the same transaction.
      removeAllOfUser: (uid, trx) => store.removeAllOfUser(uid, trx).then(() => undefined),
    } satisfies SecondStep,

    /**
     * mfaSignIn:finalize: a code (or a recovery code) finishes a pending sign-in, through the
     * core's completeSecondStep (which counts it against the account's sign-in limits and uses
     * the pending credential up). The fifth wrong code ends the pending sign-in.
     */
    finishSignIn(
      input: { credential: string; enrollmentId: string; code: string },
      context: AttemptContext,
    ): Promise<IssuedSession> {
      return deps.core.completeSecondStep(
        {
          pendingCredential: input.credential,
          check: async (user) => {
            if ((await store.wrongCodesFor(input.credential)) >= WRONG_CODES_LIMIT) {
              throw new IdentityError('INVALID_MFA_PENDING_CREDENTIAL');
            }
            const factor = await store.factorOf(user.id);
            if (!factor || factor.enrollment_id !== input.enrollmentId) {
              throw new IdentityError('MFA_ENROLLMENT_NOT_FOUND');
            }
            if (!(await useCode(factor, input.code))) {
              const at = now();
              await store.countWrongCode(input.credential, user.id, at + PENDING_SECOND_STEP_LIFETIME_MS, at);
              if ((await store.wrongCodesFor(input.credential)) === WRONG_CODES_LIMIT) {
                await tellOfWrongCodes(user, context.origin);
              }
              throw new IdentityError('INVALID_CODE');
            }
            return { factor: SECOND_FACTOR_TOTP, identifier: factor.enrollment_id };
          },
        },
        context,
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
        if (removed) await endAllSessions(uid, trx);
        return removed;
      });
    },
  };
}

export type TwoStep = ReturnType<typeof createTwoStep>;
