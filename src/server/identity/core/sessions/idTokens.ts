import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { UserRow } from '../identityTables.ts';
import { ID_TOKEN_LIFETIME_SECONDS } from '../lifetimes.ts';
import type { SigningKeys } from '../stores/signingKeys.ts';

/** The ID tokens' `iss`. */
export function tokenIssuer(publicUrl: string): string {
  return `${publicUrl}/identity`;
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
    /** `firebase.sign_in_provider`: how the session was started ('password', 'passkey'). */
    provider: string;
    /** `firebase.sign_in_second_factor`: the second step that completed the sign-in ('totp'), if any. */
    secondFactor?: string | undefined;
    /** `firebase.second_factor_identifier`: that second step's enrollment id, if any. */
    secondFactorId?: string | undefined;
    /** The provider identities linked to the account (`firebase.identities`, beside the email). */
    links: readonly { provider_id: string; subject: string }[];
    now: number;
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
    // A custom claim, as Firebase puts them: top level. A picture for clients; the server reads the database.
    role: user.role,
    firebase: {
      identities: identitiesOf(user, options.links),
      sign_in_provider: options.provider,
      ...(options.secondFactor !== undefined ? { sign_in_second_factor: options.secondFactor } : {}),
      ...(options.secondFactorId !== undefined ? { second_factor_identifier: options.secondFactorId } : {}),
    },
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

/** `firebase.identities`: each way to be recognised, by provider id (Firebase's shape). */
function identitiesOf(user: UserRow, links: readonly { provider_id: string; subject: string }[]) {
  const identities: Record<string, string[]> = { email: [user.email] };
  for (const link of links) identities[link.provider_id] = [link.subject];
  return identities;
}
