import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../../config.ts';
import type { Database } from '../../../db/database.ts';
import { MailDeliveryError, type Mailer } from '../../../mail/mailer.ts';
import type { RateLimiter } from '../../../rateLimit/rateLimiter.ts';
import type { DeliveryTimingMask } from './deliveryTimingMask.ts';
import { passwordResetEmail } from './identityEmails.ts';
import { emailDeliveryFailed, IdentityError } from '../identityErrors.ts';
import { consumeOrThrow, emailKey, type IdentityRateLimitRules } from '../identityRateLimits.ts';
import { claimChanges } from '../members/addressClaims.ts';
import type { AccountTakeoverListener } from '../signIn/federatedSignIn.ts';
import type { OobCodeRow, UserRow } from '../identityTables.ts';
import { tellRoleGranted, type MemberChangedListener } from '../members/memberOperations.ts';
import { PASSWORD_RESET_CODE_LIFETIME_MS } from '../lifetimes.ts';
import type { OobCodesStore } from '../stores/oobCodesStore.ts';
import { isOpaqueSecretShaped } from '../opaqueSecrets.ts';
import type { Origin } from '../origin.ts';
import type { PasswordHasher } from '../passwords/passwordHashing.ts';
import { checkPasswordStrength } from '../passwords/passwordRules.ts';
import type { SessionsStore } from '../stores/sessionsStore.ts';
import type { UsersStore } from '../stores/usersStore.ts';
import { validSinceAfterChange } from '../validSince.ts';

/** What checking an action code tells (the SDK's checkActionCode). */
export interface ActionCodeInfo {
  requestType: string;
  email: string;
  newEmail?: string;
}

/** Emailed action codes: checking any of them; password reset (send, apply). */
export function createActionCodes(deps: {
  config: Config;
  database: Database;
  users: UsersStore;
  sessions: SessionsStore;
  oobCodes: OobCodesStore;
  passwords: PasswordHasher;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  rules: IdentityRateLimitRules;
  deliveryMask: DeliveryTimingMask;
  /** Run when a reset claims an account someone else may have registered first (its other ways in go). */
  takeoverListeners: readonly AccountTakeoverListener[];
  /** Told when the reset's claim grants the role bound to the address (the audit log). */
  memberChangedListeners: readonly MemberChangedListener[];
  now: () => number;
}) {
  const { config, users, sessions, oobCodes, rateLimiter, rules, deliveryMask } = deps;

  /** A live code and its account, or the refusal a client gets for it. */
  async function liveCode(code: string, origin: Origin): Promise<{ row: OobCodeRow; user: UserRow }> {
    await consumeOrThrow(rateLimiter, [[rules.resetCodePerIp, origin.ip]]);
    if (!isOpaqueSecretShaped(code)) throw new IdentityError('INVALID_OOB_CODE');
    const row = await oobCodes.find(code);
    if (!row || row.used_at !== null) throw new IdentityError('INVALID_OOB_CODE');
    if (row.expires_at <= deps.now()) throw new IdentityError('EXPIRED_OOB_CODE');
    const user = await users.findById(row.user_id);
    // The code was sent to an address the account no longer has (a recovery code restores one it no longer has).
    if (!user || (row.request_type !== 'RECOVER_EMAIL' && user.email !== row.email)) {
      throw new IdentityError('INVALID_OOB_CODE');
    }
    return { row, user };
  }

  return {
    /**
     * Mails a reset link when the address has an account; answers the same, as fast and as
     * often failing, when it has none (decision 0002).
     */
    async sendPasswordReset(email: string, origin: Origin): Promise<void> {
      await consumeOrThrow(rateLimiter, [
        [rules.resetEmailPerEmail, emailKey(email)],
        [rules.resetEmailPerIp, origin.ip],
      ]);
      const user = await users.findByEmail(email);
      if (!user || user.disabled === 1) {
        // Nothing is sent, but the answer takes as long and fails as often as a real send.
        const imitation = deliveryMask.imitate(deps.now());
        await sleep(imitation.waitMs);
        if (imitation.fail) throw emailDeliveryFailed();
        return;
      }
      // Timed from here so that unknown emails also imitate the cost of issuing the code.
      const started = performance.now();
      const code = await oobCodes.issue(
        {
          userId: user.id,
          email: user.email,
          requestType: 'PASSWORD_RESET',
          lifetimeMs: PASSWORD_RESET_CODE_LIFETIME_MS,
        },
        deps.now(),
      );
      try {
        await deps.mailer.send(
          passwordResetEmail({ to: user.email, publicUrl: config.publicUrl, siteTitle: config.site.title, code }),
        );
        deliveryMask.record({ durationMs: performance.now() - started, failed: false }, deps.now());
      } catch (error) {
        deliveryMask.record({ durationMs: performance.now() - started, failed: true }, deps.now());
        if (error instanceof MailDeliveryError) {
          origin.log.warn({ err: { name: error.name, message: error.message } }, 'password reset email not sent');
          throw emailDeliveryFailed();
        }
        throw error;
      }
    },

    liveCode,

    /**
     * Checks a code of any type without using it, answering as the SDK's checkActionCode reads
     * it: VERIFY_AND_CHANGE_EMAIL names the current address and the new one; RECOVER_EMAIL the
     * address it restores (`email`) and the one it replaces (`newEmail`).
     */
    async check(code: string, origin: Origin): Promise<ActionCodeInfo> {
      const { row } = await liveCode(code, origin);
      return {
        requestType: row.request_type,
        email: row.email,
        ...(row.new_email !== null ? { newEmail: row.new_email } : {}),
      };
    },

    /**
     * Sets a new password with a reset code. Following the emailed link and choosing the
     * credential claims the address (addressClaims.ts): every session and other code ends, a
     * role bound to the address is granted, and on an account not claimed before, every other
     * way in that whoever registered it first may have added (provider links, passkeys,
     * two-step) goes too.
     */
    async resetPassword(code: string, newPassword: string, origin: Origin): Promise<ActionCodeInfo> {
      const { row, user } = await liveCode(code, origin);
      if (row.request_type !== 'PASSWORD_RESET') throw new IdentityError('INVALID_OOB_CODE');
      checkPasswordStrength(newPassword, config.passwordMinLength);
      const passwordHash = await deps.passwords.hash(newPassword);
      const now = deps.now();
      await deps.database.db.transaction().execute(async (trx) => {
        if (!(await oobCodes.markUsed(code, now, trx))) throw new IdentityError('INVALID_OOB_CODE');
        const changes = {
          password_hash: passwordHash,
          password_updated_at: now,
          valid_since: validSinceAfterChange(now, user.valid_since),
          ...claimChanges(user, config.ownerEmail),
        };
        await users.update(user.id, changes, trx);
        await sessions.revokeAllOfUser(user.id, trx);
        // A new password ends the other codes too (a recovery link keeps its job).
        await oobCodes.revokeAllOfUser(user.id, trx, ['RECOVER_EMAIL']);
        if (user.address_claimed === 0) for (const listener of deps.takeoverListeners) await listener(user.id, trx);
        await tellRoleGranted(deps.memberChangedListeners, user, { ...user, ...changes }, trx);
      });
      return { requestType: 'PASSWORD_RESET', email: user.email };
    },
  };
}

export type ActionCodes = ReturnType<typeof createActionCodes>;
