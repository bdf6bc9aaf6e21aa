import type { LookupUser, ProviderUserInfo } from '../../../shared/identityProtocol.ts';
import type { UserRow } from '../core/identityTables.ts';

export function providerUserInfo(user: UserRow): ProviderUserInfo[] {
  return [
    {
      providerId: 'password',
      rawId: user.email,
      federatedId: user.email,
      email: user.email,
      ...(user.display_name !== null ? { displayName: user.display_name } : {}),
      ...(user.photo_url !== null ? { photoUrl: user.photo_url } : {}),
    },
  ];
}

/** One entry of accounts:lookup. Never includes the password hash. */
export function lookupUser(user: UserRow): LookupUser {
  return {
    localId: user.id,
    email: user.email,
    emailVerified: user.email_verified === 1,
    ...(user.display_name !== null ? { displayName: user.display_name } : {}),
    ...(user.photo_url !== null ? { photoUrl: user.photo_url } : {}),
    passwordUpdatedAt: user.password_updated_at,
    providerUserInfo: providerUserInfo(user),
    validSince: String(Math.floor(user.valid_since / 1000)),
    createdAt: String(user.created_at),
    lastLoginAt: String(user.last_login_at ?? user.created_at),
    // Custom claims as Firebase reports them: a JSON string.
    customAttributes: JSON.stringify({ role: user.role }),
  };
}
