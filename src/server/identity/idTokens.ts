import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { UserRow } from './usersRepository.ts';
import type { SigningKeys } from './signingKeys.ts';

export const ID_TOKEN_LIFETIME_SECONDS = 3600;

export function tokenIssuer(publicUrl: string): string {
  return `${publicUrl}/identity`;
}

/**
 * The valid_since after a password change, reset or disable at `now`. ID tokens carry `iat`
 * in whole seconds and are never stamped before valid_since (see signIdToken), so the new
 * value is a whole second strictly above every `iat` already issued: older tokens then have
 * iat*1000 < valid_since, newer ones do not.
 */
export function validSinceAfterChange(now: number, previous: number): number {
  return Math.max(Math.ceil(now / 1000) * 1000, previous + 1000);
}

/** The valid_since of a new account: the start of the current second. */
export function initialValidSince(now: number): number {
  return Math.floor(now / 1000) * 1000;
}

/**
 * Signs an ID token. `iat` never precedes the user's valid_since, so a token issued in the
 * same second as a password change is not refused by its own change.
 */
export async function signIdToken(
  keys: SigningKeys,
  options: { issuer: string; audience: string; user: UserRow; authTime: number; now: number },
): Promise<string> {
  const { user } = options;
  const key = await keys.current();
  const iat = Math.max(Math.floor(options.now / 1000), Math.ceil(user.valid_since / 1000));
  return new SignJWT({
    auth_time: Math.floor(options.authTime / 1000),
    user_id: user.id,
    email: user.email,
    email_verified: user.email_verified === 1,
    ...(user.display_name !== null ? { name: user.display_name } : {}),
    ...(user.photo_url !== null ? { picture: user.photo_url } : {}),
    firebase: { identities: { email: [user.email] }, sign_in_provider: 'password' },
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
