import type { UserRow } from './identityTables.ts';

/**
 * The columns that mark `email` verified on an account: with OWNER_EMAIL set to that address,
 * the account becomes `owner` in the same write (docs/product.md, Roles: the first owner).
 * `ownerEmail` is lowercased like stored addresses.
 */
export function verifiedAddressChanges(
  ownerEmail: string | undefined,
  email: string,
): Pick<UserRow, 'email_verified'> & Partial<Pick<UserRow, 'role'>> {
  return ownerEmail !== undefined && email === ownerEmail
    ? { email_verified: 1, role: 'owner' }
    : { email_verified: 1 };
}
