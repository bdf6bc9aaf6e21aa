import type { LookupUser, ProviderUserInfo } from '../../../shared/identityProtocol.ts';
import type { FederatedIdentityRow, UserRow } from '../core/identityTables.ts';
import { hasPassword, PASSWORD_PROVIDER_ID } from '../core/signIn/signInMethods.ts';

/** One entry per way to sign in: the password (when the account has one) and each linked provider. */
export function providerUserInfo(user: UserRow, links: readonly FederatedIdentityRow[]): ProviderUserInfo[] {
  const password: ProviderUserInfo[] = hasPassword(user)
    ? [
        {
          providerId: PASSWORD_PROVIDER_ID,
          rawId: user.email,
          federatedId: user.email,
          email: user.email,
          ...(user.display_name !== null ? { displayName: user.display_name } : {}),
          ...(user.photo_url !== null ? { photoUrl: user.photo_url } : {}),
        },
      ]
    : [];
  return [
    ...password,
    ...links.map((link) => ({
      providerId: link.provider_id,
      rawId: link.subject,
      federatedId: link.subject,
      ...(link.email !== null ? { email: link.email } : {}),
      ...(link.display_name !== null ? { displayName: link.display_name } : {}),
      ...(link.photo_url !== null ? { photoUrl: link.photo_url } : {}),
    })),
  ];
}

/** One entry of accounts:lookup. Never includes the password hash. */
export function lookupUser(user: UserRow, links: readonly FederatedIdentityRow[]): LookupUser {
  return {
    localId: user.id,
    email: user.email,
    emailVerified: user.email_verified === 1,
    ...(user.display_name !== null ? { displayName: user.display_name } : {}),
    ...(user.photo_url !== null ? { photoUrl: user.photo_url } : {}),
    passwordUpdatedAt: user.password_updated_at,
    providerUserInfo: providerUserInfo(user, links),
    validSince: String(Math.floor(user.valid_since / 1000)),
    createdAt: String(user.created_at),
    lastLoginAt: String(user.last_login_at ?? user.created_at),
    // Custom claims as Firebase reports them: a JSON string.
    customAttributes: JSON.stringify({ role: user.role }),
  };
}
