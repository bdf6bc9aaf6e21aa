import type { Database } from '../../db/database.ts';
import type { Role } from '../../../shared/roles.ts';
import type { AccountOperations } from './accountOperations.ts';
import type { MemberChange, MemberOperations } from './memberOperations.ts';
import { importAccounts, type ImportedAccount } from './accountImport.ts';
import type { FirebaseHashParameters } from './firebaseScrypt.ts';
import type { FederatedIdentitiesStore } from './federatedIdentitiesStore.ts';
import type { UserRow } from './identityTables.ts';
import type { PasswordHasher } from './passwordHashing.ts';
import type { SessionsStore } from './sessionsStore.ts';
import type { SigningKeys } from './signingKeys.ts';
import type { UsersStore } from './usersStore.ts';

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
  database: Database;
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

    /** A new current signing key; the previous one verifies until its tokens expire. */
    rotateSigningKey: () => deps.keys.rotate(),

    /** Accounts exported from Firebase, with their uids and password hashes (accountImport.ts). */
    importAccounts: (
      accounts: ImportedAccount[],
      options: { hashParameters: FirebaseHashParameters; role: Role; progress: (done: number, total: number) => void },
    ) => importAccounts(deps.database, accounts, { ...options, now: deps.now() }),
  };
}

export type OperatorOperations = ReturnType<typeof createOperatorOperations>;
