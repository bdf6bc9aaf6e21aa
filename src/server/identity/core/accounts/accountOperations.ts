import { addressChanged } from '../members/addressClaims.ts';
import type { Transaction } from 'kysely';
import type { Config } from '../../../config.ts';
import type { Database } from '../../../db/database.ts';
import type { DatabaseSchema } from '../../../db/schema.ts';
import type { Mailer, MailMessage } from '../../../mail/mailer.ts';
import type { RateLimiter, RateLimitRule } from '../../../rateLimit/rateLimiter.ts';
import { sendInBackground } from '../emailActions/backgroundMail.ts';
import { IdentityError } from '../identityErrors.ts';
import { consumeOrThrow, type IdentityRateLimitRules } from '../identityRateLimits.ts';
import type { UserRow } from '../identityTables.ts';
import type { OobCodesStore } from '../stores/oobCodesStore.ts';
import { newId } from '../opaqueSecrets.ts';
import type { Origin } from '../origin.ts';
import type { EmailActions } from '../emailActions/emailActions.ts';
import type { FederatedIdentitiesStore } from '../stores/federatedIdentitiesStore.ts';
import type { PasswordHasher } from '../passwords/passwordHashing.ts';
import { checkPasswordStrength } from '../passwords/passwordRules.ts';
import type { RecentSignIn } from '../sessions/recentSignIn.ts';
import type { IssuedSession, SessionIssuer } from '../sessions/sessionIssuer.ts';
import type { SessionsStore } from '../stores/sessionsStore.ts';
import type { SignUpGate } from '../signIn/signUpGate.ts';
import type { SignInAttempts, SignInResult } from '../signIn/signInAttempt.ts';
import { EmailTakenError, type UsersStore } from '../stores/usersStore.ts';
import { initialValidSince, validSinceAfterChange } from '../validSince.ts';
import type { VerifiedToken } from '../sessions/verifyIdToken.ts';

export type UserDeletingListener = (uid: string, trx: Transaction<DatabaseSchema>) => Promise<void>;

/** The account's profile after a change, its photo URL as stored (origin-free for uploads here). */
export type ProfileChangedListener = (
  user: { id: string; displayName: string | null; photoUrl: string | null },
  trx: Transaction<DatabaseSchema>,
) => Promise<void>;

export interface AccountChanges {
  email?: string | undefined;
  password?: string | undefined;
  /** '' or null removes it. */
  displayName?: string | null | undefined;
  photoUrl?: string | null | undefined;
}

/** Sign-up, password sign-in, profile and credential changes, deletion. */
export function createAccountOperations(deps: {
  config: Config;
  database: Database;
  users: UsersStore;
  sessions: SessionsStore;
  oobCodes: OobCodesStore;
  federated: FederatedIdentitiesStore;
  issuer: SessionIssuer;
  emailActions: EmailActions;
  passwords: PasswordHasher;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  rules: IdentityRateLimitRules;
  now: () => number;
  userDeletingListeners: UserDeletingListener[];
  profileChangedListeners: ProfileChangedListener[];
  signIns: SignInAttempts;
  signUpGate: SignUpGate;
  recentSignIn: RecentSignIn;
}) {
  const { config, users, sessions, oobCodes, issuer, passwords, rateLimiter, rules } = deps;

  const requireRecentSignIn = deps.recentSignIn.require;

  return {
    async signUp(
      input: {
        email: string;
        password: string;
        displayName?: string | undefined;
        inviteCode?: string | undefined;
        replaces?: string | undefined;
      },
      origin: Origin,
    ): Promise<IssuedSession> {
      checkPasswordStrength(input.password, config.passwordMinLength);
      // Counted before the policy looks at an invitation code: codes are tried at this limit's pace.
      await consumeOrThrow(rateLimiter, [[rules.signUpPerIp, origin.ip]]);
      const admission = await deps.signUpGate.admit({ email: input.email, inviteCode: input.inviteCode });
      const now = deps.now();
      const user: UserRow = {
        id: newId(21),
        email: input.email,
        password_hash: await passwords.hash(input.password),
        display_name: input.displayName ? input.displayName : null,
        photo_url: null,
        email_verified: 0,
        disabled: 0,
        created_at: now,
        last_login_at: now,
        password_updated_at: now,
        role: admission.role,
        valid_since: initialValidSince(now),
        address_claimed: 0,
        claimable_role: admission.claimableRole ?? null,
      };
      let issued: IssuedSession;
      try {
        issued = await issuer.issue(
          user,
          { authTime: now, provider: 'password', replaces: input.replaces },
          {
            first: async (trx) => {
              await users.insert(user, trx);
              if (admission.claim) await admission.claim(user.id, trx);
              // A new account's profile: other features' data made from it start with it.
              const profile = { id: user.id, displayName: user.display_name, photoUrl: null };
              for (const listener of deps.profileChangedListeners) await listener(profile, trx);
            },
          },
        );
      } catch (error) {
        if (error instanceof EmailTakenError) throw new IdentityError('EMAIL_EXISTS');
        throw error;
      }
      // A sign-up mails a verification link (docs/architecture.md, Sign-in protocol); the account works meanwhile.
      await deps.emailActions.sendVerificationInBackground(user, origin);
      return issued;
    },

    /** A password sign-in: one sign-in attempt (signInAttempt.ts) whose first factor is the password. */
    signInWithPassword(
      input: { email: string; password: string; replaces?: string | undefined },
      origin: Origin,
    ): Promise<SignInResult> {
      // Read while the attempt is counted; nothing about it is revealed before the count refuses or not.
      const found = users.findByEmail(input.email);
      found.catch(() => {}); // awaited in check(); a refusal by the count must not leave it unhandled
      return deps.signIns.attempt(
        {
          provider: 'password',
          account: input.email,
          check: async () => {
            const user = await found;
            // Unknown emails cost one password verification too, so timing does not reveal accounts.
            const checked = user
              ? await passwords.check(user.password_hash, input.password)
              : { ok: await passwords.checkNobody(input.password), needsRehash: false };
            if (!user || !checked.ok) throw new IdentityError('INVALID_LOGIN_CREDENTIALS');
            // A hash in another algorithm (imported from Firebase) becomes argon2id in the sign-in's own transaction.
            const rehashed = checked.needsRehash ? await passwords.hash(input.password) : undefined;
            return {
              user,
              writes:
                rehashed === undefined
                  ? undefined
                  : (trx) => users.replacePasswordHash(user.id, user.password_hash, rehashed, trx),
            };
          },
        },
        { origin, replaces: input.replaces },
      );
    },

    /**
     * Changes the profile and, with a recent sign-in, the email or password. A new email or
     * password ends every session of the account (docs/architecture.md, Sign-in protocol) and the caller goes on in a
     * fresh one, returned as `session`.
     */
    async update(
      token: VerifiedToken,
      changes: AccountChanges,
      options: { replaces?: string | undefined },
      origin: Origin,
    ): Promise<{ user: UserRow; session?: IssuedSession }> {
      const { user } = token;
      const changesEmail = changes.email !== undefined && changes.email !== user.email;
      const changesPassword = changes.password !== undefined;
      if (changesEmail || changesPassword) requireRecentSignIn(token);
      if (changes.password !== undefined) checkPasswordStrength(changes.password, config.passwordMinLength);
      // Counted before anything is tried: an EMAIL_EXISTS answer (a probe of someone else's
      // address) and each argon2 hash of a new password use up the account's allowance.
      const limits: [RateLimitRule, string][] = [];
      if (changesEmail) limits.push([rules.emailChangePerUser, user.id]);
      if (changesPassword) limits.push([rules.passwordChangePerUser, user.id]);
      if (limits.length > 0) await consumeOrThrow(rateLimiter, limits);

      const now = deps.now();
      const row: Partial<UserRow> = {};
      if (changes.displayName !== undefined) row.display_name = changes.displayName || null;
      if (changes.photoUrl !== undefined) row.photo_url = changes.photoUrl || null;
      if (changesEmail) {
        row.email = changes.email;
        row.email_verified = 0;
        Object.assign(row, addressChanged);
      }
      if (changes.password !== undefined) {
        row.password_hash = await passwords.hash(changes.password);
        row.password_updated_at = now;
        row.valid_since = validSinceAfterChange(now, user.valid_since);
      }
      const updated: UserRow = { ...user, ...row };
      const changesProfile = changes.displayName !== undefined || changes.photoUrl !== undefined;
      // Other features' data made from the name and photo change with them, or nothing does.
      const tellProfileChanged = async (trx: Transaction<DatabaseSchema>) => {
        if (!changesProfile) return;
        const stored = await users.findStoredProfile(user.id, trx);
        if (!stored) return;
        for (const listener of deps.profileChangedListeners) await listener(stored, trx);
      };
      if (!changesEmail && !changesPassword) {
        if (Object.keys(row).length > 0) {
          await deps.database.db.transaction().execute(async (trx) => {
            await users.update(user.id, row, trx);
            await tellProfileChanged(trx);
          });
        }
        return { user: updated };
      }
      let session: IssuedSession;
      let mails: MailMessage[] = [];
      try {
        session = await issuer.issue(
          updated,
          { authTime: token.authTime, provider: token.provider, replaces: options.replaces },
          {
            first: async (trx) => {
              await users.update(user.id, row, trx);
              await tellProfileChanged(trx);
              await sessions.revokeAllOfUser(user.id, trx);
              // Codes mailed before the change die with it (changing the address back must not
              // revive one); a recovery link outlives it, since undoing a change is its job.
              await oobCodes.revokeAllOfUser(user.id, trx, ['RECOVER_EMAIL']);
              if (changesEmail) mails = await deps.emailActions.changeMails(trx, user, updated.email);
            },
          },
        );
      } catch (error) {
        if (error instanceof EmailTakenError) throw new IdentityError('EMAIL_EXISTS');
        throw error;
      }
      // The new address gets a verification link, the old one a notice that can undo the change.
      for (const mail of mails) sendInBackground(deps.mailer, origin.log, mail, 'email change mail');
      return { user: updated, session };
    },

    /** Deletes the account (recent sign-in needed). */
    async deleteAccount(token: VerifiedToken): Promise<void> {
      requireRecentSignIn(token);
      await deleteEverywhere(token.user.id);
    },

    deleteEverywhere,
  };

  /**
   * Deletes an account with everything hanging off it: the deletion listeners (other
   * features' data, wired in services.ts) run in the same transaction, before the users row goes.
   */
  async function deleteEverywhere(uid: string): Promise<void> {
    await deps.database.db.transaction().execute(async (trx) => {
      for (const listener of deps.userDeletingListeners) await listener(uid, trx);
      await sessions.revokeAllOfUser(uid, trx);
      await oobCodes.revokeAllOfUser(uid, trx);
      await deps.federated.removeAllOfUser(uid, trx);
      await users.delete(uid, trx);
    });
  }
}

export type AccountOperations = ReturnType<typeof createAccountOperations>;
