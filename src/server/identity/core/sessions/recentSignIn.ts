import { IdentityError } from '../identityErrors.ts';

/**
 * Changing email or password, deleting the account, linking a provider, turning two-step on or
 * off and adding a passkey need a recent sign-in (RECENT_SIGN_IN_SECONDS, default 5 minutes): a
 * stolen ID token alone cannot take the account. The core makes this once and hands it to every
 * door that asks, so the rule is written here and nowhere else.
 */
export function createRecentSignIn(now: () => number, recentSignInSeconds: number) {
  const isRecent = (authTime: number): boolean => now() - authTime <= recentSignInSeconds * 1000;
  return {
    /** Whether a sign-in at `authTime` (epoch ms) is recent enough. */
    isRecent,
    /** Refuses with CREDENTIAL_TOO_OLD_LOGIN_AGAIN when the token's sign-in is not recent. */
    require(token: { authTime: number }): void {
      if (!isRecent(token.authTime)) throw new IdentityError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN');
    },
  };
}

export type RecentSignIn = ReturnType<typeof createRecentSignIn>;
