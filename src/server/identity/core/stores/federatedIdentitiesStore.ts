import type { Kysely, Transaction } from 'kysely';
import type { DatabaseSchema } from '../../../db/schema.ts';
import type { FederatedIdentityRow } from '../identityTables.ts';
import { isUniqueViolation } from '../uniqueViolation.ts';

type Db = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** The identity (provider, sub) is linked already, or the account has this provider already. */
export class LinkTakenError extends Error {
  override name = 'LinkTakenError';
}

/** The `federated_identities` table: provider identities linked to accounts. */
export function createFederatedIdentitiesStore(db: Kysely<DatabaseSchema>) {
  return {
    async find(providerId: string, subject: string, trx: Db = db): Promise<FederatedIdentityRow | undefined> {
      return trx
        .selectFrom('federated_identities')
        .selectAll()
        .where('provider_id', '=', providerId)
        .where('subject', '=', subject)
        .executeTakeFirst();
    },

    /** An account's links, in the order of their provider ids. */
    async ofUser(userId: string, trx: Db = db): Promise<FederatedIdentityRow[]> {
      return trx
        .selectFrom('federated_identities')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('provider_id')
        .execute();
    },

    async insert(row: FederatedIdentityRow, trx: Db = db): Promise<void> {
      try {
        await trx.insertInto('federated_identities').values(row).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new LinkTakenError();
        throw error;
      }
    },

    /** The provider's latest word on the person's address, name and picture. */
    async refresh(
      row: Pick<FederatedIdentityRow, 'provider_id' | 'subject' | 'email' | 'display_name' | 'photo_url'>,
      trx: Db = db,
    ): Promise<void> {
      await trx
        .updateTable('federated_identities')
        .set({ email: row.email, display_name: row.display_name, photo_url: row.photo_url })
        .where('provider_id', '=', row.provider_id)
        .where('subject', '=', row.subject)
        .execute();
    },

    /** Unlinks the account's identities of these providers; answers how many went. */
    async removeOfUser(userId: string, providerIds: string[], trx: Db = db): Promise<number> {
      if (providerIds.length === 0) return 0;
      const result = await trx
        .deleteFrom('federated_identities')
        .where('user_id', '=', userId)
        .where('provider_id', 'in', providerIds)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async removeAllOfUser(userId: string, trx: Db): Promise<void> {
      await trx.deleteFrom('federated_identities').where('user_id', '=', userId).execute();
    },
  };
}

export type FederatedIdentitiesStore = ReturnType<typeof createFederatedIdentitiesStore>;
