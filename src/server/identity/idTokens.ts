import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { UserRow } from './usersRepository.ts';
import type { SigningKeys } from './signingKeys.ts';

export const ID_TOKEN_LIFETIME_SECONDS = 3600;

/** `firebase.sign_in_provider` of an ID token: a password, or Inkwell's own passkeys. */
export type SignInProvider = 'password' | 'passkey';

export function tokenIssuer(publicUrl: string): string {
  return `${publicUrl}/identity`;
}

/**
 * The valid_since after a password change, reset or disable at `now`, reported as the
 * protocol's `validSince` (whole seconds, never going back). ID tokens are not judged by it: a
 * token names its session (`sid`), and ending the session ends the token (decision 0020).
 */
export function validSinceAfterChange(now: number, previous: number): number {
  return Math.max(Math.ceil(now / 1000) * 1000, previous + 1000);
}

/** The valid_since of a new account: the start of the current second. */
export function initialValidSince(now: number): number {
  return Math.floor(now / 1000) * 1000;
}

/**
 * Signs an ID token for one session. The token is only as alive as its session: verifying it
 * looks the session up (verifyIdToken.ts), so signing out, a password change or a reset ends it
 * at once, however the signing and the ending interleave.
 */
export async function signIdToken(
  keys: SigningKeys,
  options: {
    issuer: string;
    audience: string;
    user: UserRow;
    sessionId: string;
    authTime: number;
    now: number;
    /** Default 'password'. */
    signInProvider?: SignInProvider | undefined;
  },
): Promise<string> {
  const { user } = options;
  const key = await keys.current();
  const iat = Math.floor(options.now / 1000);
  return new SignJWT({
    auth_time: Math.floor(options.authTime / 1000),
    user_id: user.id,
    sid: options.sessionId,
    email: user.email,
    email_verified: user.email_verified === 1,
    ...(user.display_name !== null ? { name: user.display_name } : {}),
    ...(user.photo_url !== null ? { picture: user.photo_url } : {}),
    firebase: { identities: { email: [user.email] }, sign_in_provider: options.signInProvider ?? 'password' },
  })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setSubject(user.id)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ID_TOKEN_LIFETIME_SECONDS)
    .setJti(randomUUID())
    .sign(key.privateKey);
}
