import { IdentityError } from '../identityErrors.ts';
import type { VerifiedToken } from './verifyIdToken.ts';

/**
 * Changing email or password and deleting the account need a recent sign-in
 * (RECENT_SIGN_IN_SECONDS, default 5 minutes): a stolen ID token alone cannot take the account.
 */
export function requireRecentSignIn(token: VerifiedToken, now: number, recentSignInSeconds: number): void {
  if (now - token.authTime > recentSignInSeconds * 1000) throw new IdentityError('CREDENTIAL_TOO_OLD_LOGIN_AGAIN');
}
