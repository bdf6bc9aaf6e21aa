import type { IdentityContext } from './identityContext.ts';
import { passwordAlgorithm, type PasswordAlgorithm } from './passwordHashing.ts';
import { deleteUserEverywhere } from './userDeletion.ts';
import type { UserRow } from './usersRepository.ts';

/** An account as an operator sees it: never the password hash. Times are epoch milliseconds. */
export interface AdminUserView {
  uid: string;
  email: string;
  displayName: string | null;
  emailVerified: boolean;
  disabled: boolean;
  createdAt: number;
  lastLoginAt: number | null;
  /** null: no password yet (imported from a federated-only Firebase account; set one through reset). */
  passwordAlgorithm: PasswordAlgorithm | null;
}

/** Operator actions on accounts and keys (the admin command); each finds the account by email. */
export interface IdentityAdmin {
  listUsers(): Promise<AdminUserView[]>;
  /** undefined: no such account. */
  findUser(email: string): Promise<AdminUserView | undefined>;
  /** Tokens die at once; sign-in and refresh answer USER_DISABLED. undefined: no such account. */
  disableUser(email: string): Promise<AdminUserView | undefined>;
  enableUser(email: string): Promise<AdminUserView | undefined>;
  /** Deletes the account and, through the deletion listeners, everything it owns. */
  deleteUser(email: string): Promise<AdminUserView | undefined>;
  /** A new current signing key; the previous one verifies until its tokens expire. */
  rotateSigningKey(): Promise<{ kid: string; previousKid: string | undefined }>;
}

function view(user: UserRow): AdminUserView {
  return {
    uid: user.id,
    email: user.email,
    displayName: user.display_name,
    emailVerified: user.email_verified === 1,
    disabled: user.disabled === 1,
    createdAt: user.created_at,
    lastLoginAt: user.last_login_at,
    passwordAlgorithm: passwordAlgorithm(user.password_hash),
  };
}

export function createIdentityAdmin(context: IdentityContext): IdentityAdmin {
  const { users } = context;
  return {
    listUsers: async () => (await users.list()).map(view),
    async findUser(email) {
      const user = await users.findByEmail(email);
      return user && view(user);
    },
    async disableUser(email) {
      const user = await users.findByEmail(email);
      if (!user) return undefined;
      await users.disable(user.id, context.now());
      return view({ ...user, disabled: 1 });
    },
    async enableUser(email) {
      const user = await users.findByEmail(email);
      if (!user) return undefined;
      await users.enable(user.id);
      return view({ ...user, disabled: 0 });
    },
    async deleteUser(email) {
      const user = await users.findByEmail(email);
      if (!user) return undefined;
      await deleteUserEverywhere(context, user.id);
      return view(user);
    },
    rotateSigningKey: () => context.keys.rotate(),
  };
}
