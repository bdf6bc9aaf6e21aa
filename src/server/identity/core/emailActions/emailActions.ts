import type { Transaction } from 'kysely';
import type { Config } from '../../../config.ts';
import type { Database } from '../../../db/database.ts';
import type { DatabaseSchema } from '../../../db/schema.ts';
import { MailDeliveryError, type Mailer, type MailMessage } from '../../../mail/mailer.ts';
import type { RateLimiter } from '../../../rateLimit/rateLimiter.ts';
import type { ActionCodes } from './actionCodes.ts';
import { sendInBackground } from './backgroundMail.ts';
import { emailChangedNotice, verifyAndChangeEmailMessage, verifyEmailMessage } from './identityEmails.ts';
import { emailDeliveryFailed, IdentityError } from '../identityErrors.ts';
import { consumeOrThrow, type IdentityRateLimitRules } from '../identityRateLimits.ts';
import type { UserRow } from '../identityTables.ts';
import { tellRoleGranted, type MemberChangedListener } from '../members/memberOperations.ts';
import { addressChanged, claimChanges, verifiedOnly } from '../members/addressClaims.ts';
import { RECOVER_EMAIL_CODE_LIFETIME_MS, VERIFY_EMAIL_CODE_LIFETIME_MS } from '../lifetimes.ts';
import type { OobCodesStore } from '../stores/oobCodesStore.ts';
import { isOpaqueSecretShaped } from '../opaqueSecrets.ts';
import type { Origin } from '../origin.ts';
import type { RecentSignIn } from '../sessions/recentSignIn.ts';
import type { SessionsStore } from '../stores/sessionsStore.ts';
import { EmailTakenError, type UsersStore } from '../stores/usersStore.ts';
import type { VerifiedToken } from '../sessions/verifyIdToken.ts';

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
  /** Told when claiming an address grants the role bound to it (the audit log). */
  memberChangedListeners: MemberChangedListener[];
  recentSignIn: RecentSignIn;
}) {
  const { config, users, sessions, oobCodes, rateLimiter, rules } = deps;
  const tellPromotion = (before: UserRow, after: UserRow, trx: Trx) =>
    tellRoleGranted(deps.memberChangedListeners, before, after, trx);
  const { publicUrl } = config;
  // The site's name is read at each mail (an owner may change it in the settings, decision 0840).
  const siteTitle = () => config.site.title;

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
        verifyEmailMessage({ to: user.email, publicUrl, siteTitle: siteTitle(), code }),
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
        verifyEmailMessage({ to: user.email, publicUrl, siteTitle: siteTitle(), code }),
        'verification email',
      );
    },

    /**
     * VERIFY_AND_CHANGE_EMAIL: mails `newEmail` a link; the address changes only when it is
     * applied. Needs a recent sign-in and counts as an email change (EMAIL_EXISTS included).
     */
    async sendChangeVerification(token: VerifiedToken, newEmail: string, origin: Origin): Promise<{ email: string }> {
      const { user } = token;
      deps.recentSignIn.require(token);
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
        verifyAndChangeEmailMessage({ to: newEmail, publicUrl, siteTitle: siteTitle(), code }),
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
        verifyEmailMessage({ to: newEmail, publicUrl, siteTitle: siteTitle(), code: verify }),
        emailChangedNotice({ to: before.email, newEmail, publicUrl, siteTitle: siteTitle(), code: recover }),
      ];
    },

    /**
     * Applies a VERIFY_EMAIL, VERIFY_AND_CHANGE_EMAIL or RECOVER_EMAIL code (accounts:update
     * with oobCode). A change or a recovery ends every session; a recovery also ends every
     * other code, and the owner goes on by signing in (and resetting the password).
     *
     * `claimant`: the account the request is signed in to, if any. A verification code applied
     * by a session of its own account that began before the code was sent claims the address
     * (addressClaims.ts): the mailbox and the way in are in one hand. Opened by anyone else
     * (a mail app, another device), it only verifies.
     */
    async apply(code: string, origin: Origin, claimant?: VerifiedToken): Promise<UserRow> {
      try {
        return await applyLive(code, origin, claimant);
      } catch (error) {
        const spent = error instanceof IdentityError && SPENT_CODE_ERRORS.has(error.code);
        const verifiedAccount = spent ? await alreadyVerifiedBy(code, claimant) : undefined;
        if (verifiedAccount) return verifiedAccount;
        throw error;
      }
    },
  };

  /** Whether `claimant` may claim `user`'s address with a code sent at `codeSentAt`. */
  const claims = (claimant: VerifiedToken | undefined, user: UserRow, codeSentAt: number) =>
    claimant !== undefined && claimant.user.id === user.id && claimant.authTime <= codeSentAt;

  /**
   * The account a spent (used, expired or raced) verification code names, when the address it
   * was sent to is still the account's and verified: opening the link a second time (a mail
   * app's preview, another device) then answers as the first time did instead of "expired or
   * already used" (issue 26.9, decision 0501). Other code types never qualify. Opened again
   * while signed in to the account before it expired, it claims the address (a link first
   * opened by a mail app's preview).
   */
  async function alreadyVerifiedBy(code: string, claimant: VerifiedToken | undefined): Promise<UserRow | undefined> {
    if (!isOpaqueSecretShaped(code)) return undefined;
    const row = await oobCodes.find(code);
    if (row?.request_type !== 'VERIFY_EMAIL') return undefined;
    const user = await users.findById(row.user_id);
    if (!user || user.email !== row.email || user.email_verified !== 1) return undefined;
    if (user.address_claimed === 1 || !claims(claimant, user, row.created_at) || row.expires_at <= deps.now())
      return user;
    const changes = claimChanges(user, config.ownerEmail);
    return deps.database.db.transaction().execute(async (trx) => {
      const claimed = { ...user, ...changes };
      await users.update(user.id, changes, trx);
      await tellPromotion(user, claimed, trx);
      return claimed;
    });
  }

  async function applyLive(code: string, origin: Origin, claimant: VerifiedToken | undefined): Promise<UserRow> {
    const { row, user } = await deps.actionCodes.liveCode(code, origin);
    const now = deps.now();
    const claimed = claims(claimant, user, row.created_at);
    let updated: UserRow;
    let notices: MailMessage[] = [];
    try {
      updated = await deps.database.db.transaction().execute(async (trx) => {
        if (!(await oobCodes.markUsed(code, now, trx))) throw new IdentityError('INVALID_OOB_CODE');
        switch (row.request_type) {
          case 'VERIFY_EMAIL': {
            const changes = claimed ? claimChanges(user, config.ownerEmail) : verifiedOnly;
            await users.update(user.id, changes, trx);
            await tellPromotion(user, { ...user, ...changes }, trx);
            return { ...user, ...changes };
          }
          case 'VERIFY_AND_CHANGE_EMAIL': {
            // An invitation bound to the old address does not move with the account.
            const moved: UserRow = { ...user, email: row.new_email!, ...addressChanged };
            const changes = {
              email: moved.email,
              ...addressChanged,
              ...(claimed ? claimChanges(moved, config.ownerEmail) : verifiedOnly),
            };
            await users.update(user.id, changes, trx);
            await sessions.revokeAllOfUser(user.id, trx);
            await oobCodes.revokeAllOfUser(user.id, trx, ['RECOVER_EMAIL']);
            const recover = await oobCodes.issue(
              {
                userId: user.id,
                email: user.email,
                newEmail: moved.email,
                requestType: 'RECOVER_EMAIL',
                lifetimeMs: RECOVER_EMAIL_CODE_LIFETIME_MS,
              },
              now,
              trx,
            );
            notices = [
              emailChangedNotice({
                to: user.email,
                newEmail: moved.email,
                publicUrl,
                siteTitle: siteTitle(),
                code: recover,
              }),
            ];
            await tellPromotion(user, { ...user, ...changes }, trx);
            return { ...user, ...changes };
          }
          case 'RECOVER_EMAIL': {
            // Opening the link at the old address proves it is the owner's; whoever changed it
            // may still know the password, so the address is claimed by the next reset.
            const changes = { email: row.email, ...verifiedOnly, address_claimed: 0 };
            await users.update(user.id, changes, trx);
            await sessions.revokeAllOfUser(user.id, trx);
            await oobCodes.revokeAllOfUser(user.id, trx);
            return { ...user, ...changes };
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
