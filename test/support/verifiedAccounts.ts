import { signUp, type TestUser } from './articlesTestClient.ts';
import type { TestApp } from './testApp.ts';

/**
 * Signs a new user up and marks the address verified in the database, for tests of what needs a
 * verified address (adding a passkey, linking a provider) and not of verifying it: the emailed
 * link itself is tested in emailActions.test.ts and addressClaims.test.ts. Verified, not claimed.
 */
export async function signUpWithVerifiedAddress(
  app: Pick<TestApp, 'url' | 'database'>,
  displayName: string,
): Promise<TestUser> {
  const user = await signUp(app.url, displayName);
  await markAddressVerified(app, user.uid);
  return user;
}

/** Marks an account's address verified, as an opened verification link would. */
export async function markAddressVerified(app: Pick<TestApp, 'database'>, uid: string): Promise<void> {
  await app.database.db.updateTable('users').set({ email_verified: 1 }).where('id', '=', uid).execute();
}
