import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Whose account it is (DESIGN §9.1, decision 0551):
 *
 * - `address_claimed` (0 or 1): the address was proven by whoever holds the account's way in
 *   (a password reset, a verification link opened while signed in to the account, or a
 *   provider that verified the address). Until then the account may have been registered by
 *   someone else first: no role bound to the address is granted, and the first password reset
 *   ends every other way in. Accounts verified before this change count as claimed.
 * - `claimable_role`: the role of an invitation bound to the address, granted when it is
 *   claimed; NULL when none waits.
 */
export const addressClaimsMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('users')
      .addColumn('address_claimed', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('users').addColumn('claimable_role', 'text').execute();
    await db
      .updateTable('users')
      .set({ address_claimed: sql`email_verified` })
      .execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async down(db: Kysely<any>) {
    await db.schema.alterTable('users').dropColumn('claimable_role').execute();
    await db.schema.alterTable('users').dropColumn('address_claimed').execute();
  },
};
