import type { Transaction } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { DatabaseSchema } from '../../db/schema.ts';
import type { Mailer, MailMessage } from '../../mail/mailer.ts';
import type { RateLimiter, RateLimitRule } from '../../rateLimit/rateLimiter.ts';
import { sendInBackground } from './backgroundMail.ts';
import { IdentityError } from './identityErrors.ts';
import { consumeOrThrow, emailKey, type IdentityRateLimitRules } from './identityRateLimits.ts';
import type { UserRow } from './identityTables.ts';
import type { OobCodesStore } from './oobCodesStore.ts';
import { newId } from './opaqueSecrets.ts';
import type { Origin } from './origin.ts';
import type { EmailActions } from './emailActions.ts';
import type { FederatedIdentitiesStore } from './federatedIdentitiesStore.ts';
import type { PasswordHasher } from './passwordHashing.ts';
import { checkPasswordStrength } from './passwordRules.ts';
import { requireRecentSignIn as requireRecentSignInAt } from './recentSignIn.ts';
import type { IssuedSession, SessionIssuer } from './sessionIssuer.ts';
import type { SessionsStore } from './sessionsStore.ts';
import { EmailTakenError, type UsersStore } from './usersStore.ts';
import { initialValidSince, validSinceAfterChange } from './validSince.ts';
import type { VerifiedToken } from './verifyIdToken.ts';

export type UserDeletingListener = (uid: string, trx: Transaction<DatabaseSchema>) => Promise<void>;

/** A password sign-in attempt's outcome; `code` is the error code of a refusal. */
export type SignInOutcome = { ok: true } | { ok: false; code: string };

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
  signInListeners: ((outcome: SignInOutcome) => void)[];
}) {
  const { config, users, sessions, oobCodes, issuer, passwords, rateLimiter, rules } = deps;

  const requireRecentSignIn = (token: VerifiedToken) =>
    requireRecentSignInAt(token, deps.now(), config.recentSignInSeconds);

  async function signInWithPassword(
    input: { email: string; password: string; replaces?: string | undefined },
    origin: Origin,
  ): Promise<IssuedSession> {
    const account = emailKey(input.email);
    const perEmailAndIp: [RateLimitRule, string] = [rules.signInPerEmailAndIp, `${account}:${origin.ip}`];
    const perAccount: [RateLimitRule, string] = [rules.signInPerAccount, account];
    const perIp: [RateLimitRule, string] = [rules.signInPerIp, origin.ip];
    const attemptsPerIp: [RateLimitRule, string] = [rules.signInAttemptsPerIp, origin.ip];
    // Counted before the password is checked (all counters in one statement): parallel
    // guesses must not all slip past a check that only counted failures once they had happened.
    // The user is read meanwhile; nothing about it is revealed before the count refuses or not.
    const [, user] = await Promise.all([
      consumeOrThrow(rateLimiter, [perEmailAndIp, perAccount, perIp, attemptsPerIp]),
      users.findByEmail(input.email),
    ]);
    // Unknown emails cost one password verification too, so timing does not reveal accounts.
    const checked = user
      ? await passwords.check(user.password_hash, input.password)
      : { ok: await passwords.checkNobody(input.password), needsRehash: false };
    if (!user || !checked.ok) throw new IdentityError('INVALID_LOGIN_CREDENTIALS');
    // Those limits are on failures: the right password clears this client's earlier typos on
    // the account and uses up neither the account's nor the address's allowance. Guesses
    // others made on the account stay counted; the attempt still counts in attemptsPerIp.
    const forgive = { reset: [perEmailAndIp], refund: [perAccount, perIp] };
    if (user.disabled === 1) {
      await rateLimiter.settle(forgive);
      throw new IdentityError('USER_DISABLED');
    }
    const now = deps.now();
    // A hash in another algorithm (imported from Firebase) becomes argon2id in the sign-in's own transaction.
    const rehashed = checked.needsRehash ? await passwords.hash(input.password) : undefined;
    return issuer.issue(
      { ...user, last_login_at: now },
      { authTime: now, provider: 'password', replaces: input.replaces },
      {
        first: async (trx) => {
          await users.update(user.id, { last_login_at: now }, trx);
          if (rehashed !== undefined) await users.replacePasswordHash(user.id, user.password_hash, rehashed, trx);
        },
        // Last, so the counters' rows (shared by every sign-in from this address) stay locked
        // only until the commit right after; settle() takes them in the order consumes do.
        last: (trx) => rateLimiter.settle(forgive, trx),
      },
    );
  }

  return {
    async signUp(
      input: { email: string; password: string; displayName?: string | undefined; replaces?: string | undefined },
      origin: Origin,
    ): Promise<IssuedSession> {
      checkPasswordStrength(input.password, config.passwordMinLength);
      await consumeOrThrow(rateLimiter, [[rules.signUpPerIp, origin.ip]]);
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
        valid_since: initialValidSince(now),
      };
      let issued: IssuedSession;
      try {
        issued = await issuer.issue(
          user,
          { authTime: now, provider: 'password', replaces: input.replaces },
          { first: (trx) => users.insert(user, trx) },
        );
      } catch (error) {
        if (error instanceof EmailTakenError) throw new IdentityError('EMAIL_EXISTS');
        throw error;
      }
      // A sign-up mails a verification link (docs/architecture.md, Sign-in protocol); the account works meanwhile.
      await deps.emailActions.sendVerificationInBackground(user, origin);
      return issued;
    },

    async signInWithPassword(
      input: { email: string; password: string; replaces?: string | undefined },
      origin: Origin,
    ): Promise<IssuedSession> {
      try {
        const issued = await signInWithPassword(input, origin);
        for (const listener of deps.signInListeners) listener({ ok: true });
        return issued;
      } catch (error) {
        const code = error instanceof IdentityError ? error.code : 'INTERNAL_ERROR';
        for (const listener of deps.signInListeners) listener({ ok: false, code });
        throw error;
      }
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
      }
      if (changes.password !== undefined) {
        row.password_hash = await passwords.hash(changes.password);
        row.password_updated_at = now;
        row.valid_since = validSinceAfterChange(now, user.valid_since);
      }
      const updated: UserRow = { ...user, ...row };
      if (!changesEmail && !changesPassword) {
        if (Object.keys(row).length > 0) await users.update(user.id, row);
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

    requireRecentSignIn,

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
