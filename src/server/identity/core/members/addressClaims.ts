import { roleAtLeast, type Role } from '../../../../shared/roles.ts';
import type { UserRow } from '../identityTables.ts';

/**
 * Whose account it is (DESIGN §9.1, decision 0551). Anyone may sign up with any address; the
 * address's owner may arrive later. So an address is *verified* by any opening of its link,
 * but *claimed* only when proven by whoever holds the account's way in:
 *
 * - a password reset (the mailbox holder chooses the credential; every other way in ends),
 * - a verification link opened in a request signed in to that account (both in one hand),
 * - a provider that verified the address (a new account, or a takeover of an unclaimed one).
 *
 * Roles bound to the address (OWNER_EMAIL, an invitation sent to it) are granted only by a
 * claim, never by a verification alone: someone who registered the address first keeps no
 * way into the role once its owner acts.
 */

/** The role the address would bring to this account on being claimed, if higher than its own. */
export function claimableRoleOf(user: UserRow, ownerEmail: string | undefined): Role | undefined {
  const bound: Role | undefined =
    ownerEmail !== undefined && user.email === ownerEmail ? 'owner' : (user.claimable_role ?? undefined);
  return bound !== undefined && !roleAtLeast(user.role, bound) ? bound : undefined;
}

/** The columns of a claim: verified, claimed, and the role waiting for it granted. */
export function claimChanges(
  user: UserRow,
  ownerEmail: string | undefined,
): Pick<UserRow, 'email_verified' | 'address_claimed' | 'claimable_role' | 'role'> {
  return {
    email_verified: 1,
    address_claimed: 1,
    claimable_role: null,
    role: claimableRoleOf(user, ownerEmail) ?? user.role,
  };
}

/** A verification without a claim: the address is confirmed; no role moves. */
export const verifiedOnly = { email_verified: 1 } as const satisfies Partial<UserRow>;

/**
 * A new address on the account (a direct change, or a change link opened by someone not
 * signed in to it): not yet claimed, and an invitation bound to the old address stays there.
 */
export const addressChanged = { address_claimed: 0, claimable_role: null } as const satisfies Partial<UserRow>;
