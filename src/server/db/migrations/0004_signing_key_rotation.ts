import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Several signing keys, one of them current. `is_current` is 1 on the current key and NULL on
 * the others; its unique index (NULLs never collide) lets the database itself refuse a second
 * current key, whichever processes race to create or rotate one.
 */
export const signingKeyRotationMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema.alterTable('identity_signing_keys').addColumn('is_current', 'integer').execute();
    await db.schema.alterTable('identity_signing_keys').addColumn('retired_at', 'bigint').execute();
    // Before this migration there was at most one key (id 'current'): it stays the current one.
    await db.updateTable('identity_signing_keys').set({ is_current: 1 }).execute();
    await db.schema
      .createIndex('identity_signing_keys_one_current')
      .on('identity_signing_keys')
      .column('is_current')
      .unique()
      .execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('identity_signing_keys_one_current').execute();
    await db.deleteFrom('identity_signing_keys').where('is_current', 'is', null).execute();
    await db.schema.alterTable('identity_signing_keys').dropColumn('retired_at').execute();
    await db.schema.alterTable('identity_signing_keys').dropColumn('is_current').execute();
  },
};
