import type { Role } from '../../src/shared/roles.ts';
import { signUp, type TestUser } from './articlesTestClient.ts';
import { setRole } from './operatorActions.ts';
import type { TestApp } from './testApp.ts';
import { markAddressVerified } from './verifiedAccounts.ts';

type Server = Pick<TestApp, 'url' | 'config' | 'database'>;

/**
 * A new account with `role`, given the operator's way after sign-up (`npm run admin -- users
 * role`; a sign-up makes an author). Its ID token still says `author`: what it may do shows
 * the server reads the role from the database. `verified` marks its address verified too, for
 * what needs one (comments, newsletters, passkeys), not for tests of verifying it.
 */
export async function signUpAs(
  server: Server,
  displayName: string,
  role: Role = 'author',
  options: { verified?: boolean } = {},
): Promise<TestUser> {
  const user = await signUp(server.url, displayName);
  if (options.verified) await markAddressVerified(server, user.uid);
  if (role !== 'author') await setRole(server, user.email, role);
  return user;
}

/** The people most tests of staff screens need: an owner, an editor and an author, signed up side by side. */
export async function staffAccounts(server: Server): Promise<{ owner: TestUser; editor: TestUser; author: TestUser }> {
  const [owner, editor, author] = await Promise.all([
    signUpAs(server, 'Olive Owner', 'owner'),
    signUpAs(server, 'Eddie Editor', 'editor'),
    signUpAs(server, 'Ann Author'),
  ]);
  return { owner, editor, author };
}
