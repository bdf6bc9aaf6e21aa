import type { Config } from '../../../config.ts';
import type { Database } from '../../../db/database.ts';
import { MailDeliveryError, type Mailer } from '../../../mail/mailer.ts';
import { accountCreatedMessage, setPasswordLink } from '../emailActions/identityEmails.ts';
import { ACCOUNT_SETUP_CODE_LIFETIME_MS } from '../lifetimes.ts';
import type { OobCodesStore } from '../stores/oobCodesStore.ts';
import { newId } from '../opaqueSecrets.ts';
import { initialValidSince } from '../validSince.ts';
import type { Role } from '../../../../shared/roles.ts';
import type { AccountOperations } from './accountOperations.ts';
import type { MemberChange, MemberOperations } from '../members/memberOperations.ts';
import { importAccounts, type ImportedAccount } from './accountImport.ts';
import type { FirebaseHashParameters } from '../passwords/firebaseScrypt.ts';
import type { FederatedIdentitiesStore } from '../stores/federatedIdentitiesStore.ts';
import type { UserRow } from '../identityTables.ts';
import type { PasswordHasher } from '../passwords/passwordHashing.ts';
import type { SessionsStore } from '../stores/sessionsStore.ts';
import type { SigningKeys } from '../stores/signingKeys.ts';
import type { UsersStore } from '../stores/usersStore.ts';

/** An account as an operator sees it: never the password hash. Times are epoch milliseconds. */
export interface AdminUserView {
  uid: string;
  email: string;
  displayName: string | null;
  emailVerified: boolean;
  disabled: boolean;
  role: Role;
  createdAt: number;
  lastLoginAt: number | null;
  /** 'argon2id', 'firebase-scrypt'; null: no password yet (imported from a federated-only Firebase account; set one through reset). */
  passwordAlgorithm: string | null;
  /** The providers linked to the account: id and the provider's `sub` (and the address it gave). */
  providers: { providerId: string; rawId: string; email: string | null }[];
}

/** Operator actions on accounts and keys (the admin command is their door); each finds the account by email. */
export function createOperatorOperations(deps: {
  config: Config;
  database: Database;
  oobCodes: OobCodesStore;
  mailer: Mailer;
  users: UsersStore;
  sessions: SessionsStore;
  accounts: AccountOperations;
  keys: SigningKeys;
  members: MemberOperations;
  federated: FederatedIdentitiesStore;
  passwords: PasswordHasher;
  now: () => number;
}) {
  const { users } = deps;
  const view = async (user: UserRow): Promise<AdminUserView> => ({
    uid: user.id,
    email: user.email,
    displayName: user.display_name,
    emailVerified: user.email_verified === 1,
    disabled: user.disabled === 1,
    role: user.role,
    createdAt: user.created_at,
    lastLoginAt: user.last_login_at,
    passwordAlgorithm: deps.passwords.algorithm(user.password_hash),
    providers: (await deps.federated.ofUser(user.id)).map((link) => ({
      providerId: link.provider_id,
      rawId: link.subject,
      email: link.email,
    })),
  });

  async function changeByEmail(email: string, change: MemberChange): Promise<AdminUserView | undefined> {
    const user = await users.findByEmail(email);
    if (!user) return undefined;
    if (!(await deps.members.change(user.id, change, { actorUid: null }))) return undefined;
    const changed = await users.findById(user.id);
    return changed && view(changed);
  }

  return {
    listUsers: async (): Promise<AdminUserView[]> => Promise.all((await users.list()).map(view)),

    /** undefined: no such account. */
    async findUser(email: string): Promise<AdminUserView | undefined> {
      const user = await users.findByEmail(email);
      return user && view(user);
    },

    /**
     * Tokens die at once; sign-in and refresh answer USER_DISABLED. Its sessions stay, so a
     * refresh answers USER_DISABLED rather than a vaguer TOKEN_EXPIRED; enabling ends them.
     * LastOwnerError for the last enabled owner.
     */
    disableUser: (email: string) => changeByEmail(email, { disabled: true }),

    /** Enables the account again; sessions from before the disable stay dead (sign in again). */
    enableUser: (email: string) => changeByEmail(email, { disabled: false }),

    /** Gives the account `role` (naming the first owner); LastOwnerError for the last enabled owner. */
    setRole: (email: string, role: Role) => changeByEmail(email, { role }),

    /** Deletes the account and, through the deletion listeners, everything it owns. */
    async deleteUser(email: string): Promise<AdminUserView | undefined> {
      const user = await users.findByEmail(email);
      if (!user) return undefined;
      await deps.accounts.deleteEverywhere(user.id);
      return view(user);
    },

    /**
     * `users create`: an account without a password, whose emailed (and returned) link sets the
     * first one, which also verifies and claims the address (addressClaims.ts). Works whatever
     * SIGNUP says: how an invite-only site gets its first owner. EmailTakenError when the address
     * has an account.
     */
    async createAccount(input: {
      email: string;
      displayName: string | null;
      role: Role;
    }): Promise<{ user: AdminUserView; setupUrl: string; mailed: boolean }> {
      const now = deps.now();
      const row: UserRow = {
        id: newId(21),
        email: input.email,
        // '' lets nothing in (passwordHashing.ts) until the link sets a password.
        password_hash: '',
        display_name: input.displayName,
        photo_url: null,
        email_verified: 0,
        disabled: 0,
        created_at: now,
        last_login_at: null,
        password_updated_at: now,
        role: deps.config.newAccountRole,
        valid_since: initialValidSince(now),
        address_claimed: 0,
        claimable_role: null,
      };
      await users.insert(row);
      // The role through the members' one way of changing it: audited, with the operator as actor.
      if (input.role !== row.role) await deps.members.change(row.id, { role: input.role }, { actorUid: null });
      const code = await deps.oobCodes.issue(
        { userId: row.id, email: row.email, requestType: 'PASSWORD_RESET', lifetimeMs: ACCOUNT_SETUP_CODE_LIFETIME_MS },
        now,
      );
      const { publicUrl } = deps.config;
      let mailed = true;
      try {
        await deps.mailer.send(
          accountCreatedMessage({ to: row.email, publicUrl, siteTitle: deps.config.site.title, code }),
        );
      } catch (error) {
        if (!(error instanceof MailDeliveryError)) throw error;
        mailed = false;
      }
      const created = await users.findById(row.id);
      return { user: await view(created!), setupUrl: setPasswordLink(publicUrl, code), mailed };
    },

    /** A new current signing key; the previous one verifies until its tokens expire. */
    rotateSigningKey: () => deps.keys.rotate(),

    /** Accounts exported from Firebase, with their uids and password hashes (accountImport.ts). */
    importAccounts: (
      accounts: ImportedAccount[],
      options: {
        hashParameters: FirebaseHashParameters | null;
        role: Role;
        progress: (done: number, total: number) => void;
      },
    ) => importAccounts(deps.database, accounts, { ...options, now: deps.now() }),
  };
}

export type OperatorOperations = ReturnType<typeof createOperatorOperations>;
