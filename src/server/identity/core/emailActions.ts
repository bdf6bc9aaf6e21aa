import type { Transaction } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { DatabaseSchema } from '../../db/schema.ts';
import { MailDeliveryError, type Mailer, type MailMessage } from '../../mail/mailer.ts';
import type { RateLimiter } from '../../rateLimit/rateLimiter.ts';
import type { ActionCodes } from './actionCodes.ts';
import { sendInBackground } from './backgroundMail.ts';
import { emailChangedNotice, verifyAndChangeEmailMessage, verifyEmailMessage } from './identityEmails.ts';
import { emailDeliveryFailed, IdentityError } from './identityErrors.ts';
import { consumeOrThrow, type IdentityRateLimitRules } from './identityRateLimits.ts';
import type { UserRow } from './identityTables.ts';
import { tellOwnerEmailPromotion, type MemberChangedListener } from './memberOperations.ts';
import { verifiedAddressChanges } from './ownerEmail.ts';
import { RECOVER_EMAIL_CODE_LIFETIME_MS, VERIFY_EMAIL_CODE_LIFETIME_MS } from './lifetimes.ts';
import type { OobCodesStore } from './oobCodesStore.ts';
import { isOpaqueSecretShaped } from './opaqueSecrets.ts';
import type { Origin } from './origin.ts';
import { requireRecentSignIn } from './recentSignIn.ts';
import type { SessionsStore } from './sessionsStore.ts';
import { EmailTakenError, type UsersStore } from './usersStore.ts';
import type { VerifiedToken } from './verifyIdToken.ts';

type Trx = Transaction<DatabaseSchema>;

/** What applying a code that was used, expired or lost a race answers. */
const SPENT_CODE_ERRORS: ReadonlySet<string> = new Set(['INVALID_OOB_CODE', 'EXPIRED_OOB_CODE']);

/**
 * Email verification, verify-before-change and recovery (docs/architecture.md, Sign-in protocol): sending the links,
 * and applying their codes.
 */
export function createEmailActions(deps: {
  config: Config;
  database: Database;
  users: UsersStore;
  sessions: SessionsStore;
  oobCodes: OobCodesStore;
  actionCodes: ActionCodes;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  rules: IdentityRateLimitRules;
  now: () => number;
  /** Told when verifying OWNER_EMAIL's address makes the account owner (the audit log). */
  memberChangedListeners: MemberChangedListener[];
}) {
  const { config, users, sessions, oobCodes, rateLimiter, rules } = deps;
  const tellPromotion = (before: UserRow, after: UserRow, trx: Trx) =>
    tellOwnerEmailPromotion(deps.memberChangedListeners, before, after, trx);
  const { publicUrl } = config;
  const siteTitle = config.site.title;

  const issueVerification = (user: UserRow, address: string, trx?: Trx) =>
    oobCodes.issue(
      { userId: user.id, email: address, requestType: 'VERIFY_EMAIL', lifetimeMs: VERIFY_EMAIL_CODE_LIFETIME_MS },
      deps.now(),
      trx,
    );

  /** Sends now and tells the client when the mail server refused (decision 0005). */
  async function sendOrFail(message: MailMessage, origin: Origin, what: string): Promise<void> {
    try {
      await deps.mailer.send(message);
    } catch (error) {
      if (error instanceof MailDeliveryError) {
        origin.log.warn({ err: { name: error.name, message: error.message }, what }, 'email not sent');
        throw emailDeliveryFailed();
      }
      throw error;
    }
  }

  const api = {
    /** VERIFY_EMAIL on request: a link to the account's address. */
    async sendVerification(token: VerifiedToken, origin: Origin): Promise<{ email: string }> {
      const { user } = token;
      await consumeOrThrow(rateLimiter, [[rules.verifyEmailPerUser, user.id]]);
      const code = await issueVerification(user, user.email);
      await sendOrFail(
        verifyEmailMessage({ to: user.email, publicUrl, siteTitle, code }),
        origin,
        'verification email',
      );
      return { email: user.email };
    },

    /** A sign-up's verification link, sent without holding up the sign-up. */
    async sendVerificationInBackground(user: UserRow, origin: Origin): Promise<void> {
      let code: string;
      try {
        code = await issueVerification(user, user.email);
      } catch (error) {
        // The account exists and works: a link can be asked for from the profile.
        origin.log.warn(
          { err: error instanceof Error ? { name: error.name, message: error.message } : error },
          'verification code not issued',
        );
        return;
      }
      sendInBackground(
        deps.mailer,
        origin.log,
        verifyEmailMessage({ to: user.email, publicUrl, siteTitle, code }),
        'verification email',
      );
    },

    /**
     * VERIFY_AND_CHANGE_EMAIL: mails `newEmail` a link; the address changes only when it is
     * applied. Needs a recent sign-in and counts as an email change (EMAIL_EXISTS included).
     */
    async sendChangeVerification(token: VerifiedToken, newEmail: string, origin: Origin): Promise<{ email: string }> {
      const { user } = token;
      requireRecentSignIn(token, deps.now(), config.recentSignInSeconds);
      await consumeOrThrow(rateLimiter, [[rules.emailChangePerUser, user.id]]);
      if (newEmail !== user.email && (await users.findByEmail(newEmail))) throw new IdentityError('EMAIL_EXISTS');
      const code = await oobCodes.issue(
        {
          userId: user.id,
          email: user.email,
          newEmail,
          requestType: 'VERIFY_AND_CHANGE_EMAIL',
          lifetimeMs: VERIFY_EMAIL_CODE_LIFETIME_MS,
        },
        deps.now(),
      );
      await sendOrFail(
        verifyAndChangeEmailMessage({ to: newEmail, publicUrl, siteTitle, code }),
        origin,
        'email change link',
      );
      return { email: user.email };
    },

    /**
     * For a direct email change, inside its transaction (after the old codes went): a
     * verification code for the new address and a recovery code for the old one. The caller
     * sends the returned mails once the change has committed.
     */
    async changeMails(trx: Trx, before: UserRow, newEmail: string): Promise<MailMessage[]> {
      const verify = await issueVerification(before, newEmail, trx);
      const recover = await oobCodes.issue(
        {
          userId: before.id,
          email: before.email,
          newEmail,
          requestType: 'RECOVER_EMAIL',
          lifetimeMs: RECOVER_EMAIL_CODE_LIFETIME_MS,
        },
        deps.now(),
        trx,
      );
      return [
        verifyEmailMessage({ to: newEmail, publicUrl, siteTitle, code: verify }),
        emailChangedNotice({ to: before.email, newEmail, publicUrl, siteTitle, code: recover }),
      ];
    },

    /**
     * Applies a VERIFY_EMAIL, VERIFY_AND_CHANGE_EMAIL or RECOVER_EMAIL code (accounts:update
     * with oobCode). A change or a recovery ends every session; a recovery also ends every
     * other code, and the owner goes on by signing in (and resetting the password).
     */
    async apply(code: string, origin: Origin): Promise<UserRow> {
      try {
        return await applyLive(code, origin);
      } catch (error) {
        const spent = error instanceof IdentityError && SPENT_CODE_ERRORS.has(error.code);
        const verifiedAccount = spent ? await alreadyVerifiedBy(code) : undefined;
        if (verifiedAccount) return verifiedAccount;
        throw error;
      }
    },
  };

  /**
   * The account a spent (used, expired or raced) verification code names, when the address it
   * was sent to is still the account's and verified: opening the link a second time (a mail
   * app's preview, another device) then answers as the first time did instead of "expired or
   * already used" (issue 26.9, decision 0501). Nothing changes; other code types never qualify.
   */
  async function alreadyVerifiedBy(code: string): Promise<UserRow | undefined> {
    if (!isOpaqueSecretShaped(code)) return undefined;
    const row = await oobCodes.find(code);
    if (row?.request_type !== 'VERIFY_EMAIL') return undefined;
    const user = await users.findById(row.user_id);
    return user && user.email === row.email && user.email_verified === 1 ? user : undefined;
  }

  async function applyLive(code: string, origin: Origin): Promise<UserRow> {
    const { row, user } = await deps.actionCodes.liveCode(code, origin);
    const now = deps.now();
    let updated: UserRow;
    let notices: MailMessage[] = [];
    try {
      updated = await deps.database.db.transaction().execute(async (trx) => {
        if (!(await oobCodes.markUsed(code, now, trx))) throw new IdentityError('INVALID_OOB_CODE');
        switch (row.request_type) {
          case 'VERIFY_EMAIL': {
            const verified = verifiedAddressChanges(config.ownerEmail, user.email);
            await users.update(user.id, verified, trx);
            await tellPromotion(user, { ...user, ...verified }, trx);
            return { ...user, ...verified };
          }
          case 'VERIFY_AND_CHANGE_EMAIL': {
            const email = row.new_email!;
            const verified = verifiedAddressChanges(config.ownerEmail, email);
            await users.update(user.id, { email, ...verified }, trx);
            await sessions.revokeAllOfUser(user.id, trx);
            await oobCodes.revokeAllOfUser(user.id, trx, ['RECOVER_EMAIL']);
            const recover = await oobCodes.issue(
              {
                userId: user.id,
                email: user.email,
                newEmail: email,
                requestType: 'RECOVER_EMAIL',
                lifetimeMs: RECOVER_EMAIL_CODE_LIFETIME_MS,
              },
              now,
              trx,
            );
            notices = [emailChangedNotice({ to: user.email, newEmail: email, publicUrl, siteTitle, code: recover })];
            await tellPromotion(user, { ...user, email, ...verified }, trx);
            return { ...user, email, ...verified };
          }
          case 'RECOVER_EMAIL': {
            // Opening the link at the old address proves it is the owner's.
            const verified = verifiedAddressChanges(config.ownerEmail, row.email);
            await users.update(user.id, { email: row.email, ...verified }, trx);
            await sessions.revokeAllOfUser(user.id, trx);
            await oobCodes.revokeAllOfUser(user.id, trx);
            await tellPromotion(user, { ...user, email: row.email, ...verified }, trx);
            return { ...user, email: row.email, ...verified };
          }
          default:
            throw new IdentityError('INVALID_OOB_CODE');
        }
      });
    } catch (error) {
      if (error instanceof EmailTakenError) throw new IdentityError('EMAIL_EXISTS');
      throw error;
    }
    for (const notice of notices) sendInBackground(deps.mailer, origin.log, notice, 'email change notice');
    return updated;
  }

  return api;
}

export type EmailActions = ReturnType<typeof createEmailActions>;
