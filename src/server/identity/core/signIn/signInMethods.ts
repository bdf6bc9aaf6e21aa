import type { Database } from '../../../db/database.ts';
import type { FederatedIdentitiesStore } from '../stores/federatedIdentitiesStore.ts';
import { IdentityError } from '../identityErrors.ts';
import type { FederatedIdentityRow, UserRow } from '../identityTables.ts';
import type { UsersStore } from '../stores/usersStore.ts';
import type { VerifiedToken } from '../sessions/verifyIdToken.ts';

/** How many ways into an account another feature holds (passkeys). */
export type SignInMethodCounter = (uid: string) => Promise<number>;

/** The protocol's id of the password as a way to sign in (providerUserInfo, deleteProvider). */
export const PASSWORD_PROVIDER_ID = 'password';

export const hasPassword = (user: UserRow) => user.password_hash !== '';

/**
 * The ways into an account (its password, each linked provider, other features' passkeys) and
 * taking them away: never the last one, or nobody could sign in to it again.
 */
export function createSignInMethods(deps: {
  database: Database;
  users: UsersStore;
  federated: FederatedIdentitiesStore;
  counters: SignInMethodCounter[];
}) {
  const { users, federated } = deps;

  return {
    linksOf: (uid: string): Promise<FederatedIdentityRow[]> => federated.ofUser(uid),

    /**
     * accounts:update `deleteProvider`: unlinks these providers ('password' removes the
     * password). Ids the account does not have are ignored, as Firebase does. Answers the
     * account as it is afterwards and its remaining links.
     */
    async remove(
      token: VerifiedToken,
      providerIds: readonly string[],
    ): Promise<{ user: UserRow; links: FederatedIdentityRow[] }> {
      const { user } = token;
      const links = await federated.ofUser(user.id);
      const removesPassword = providerIds.includes(PASSWORD_PROVIDER_ID) && hasPassword(user);
      const removedLinks = links.filter((link) => providerIds.includes(link.provider_id));
      if (!removesPassword && removedLinks.length === 0) return { user, links };
      let others = 0;
      for (const count of deps.counters) others += await count(user.id);
      const remaining = (hasPassword(user) && !removesPassword ? 1 : 0) + (links.length - removedLinks.length) + others;
      if (remaining < 1) {
        throw new IdentityError('LAST_SIGN_IN_METHOD', {
          detail: 'Add another way to sign in before removing this one.',
        });
      }
      const updated = removesPassword ? { ...user, password_hash: '' } : user;
      await deps.database.db.transaction().execute(async (trx) => {
        await federated.removeOfUser(
          user.id,
          removedLinks.map((link) => link.provider_id),
          trx,
        );
        if (removesPassword) await users.update(user.id, { password_hash: '' }, trx);
      });
      return { user: updated, links: links.filter((link) => !removedLinks.includes(link)) };
    },
  };
}

export type SignInMethods = ReturnType<typeof createSignInMethods>;
