import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Sessions remember how they were started (their ID tokens' `firebase.sign_in_provider`, kept
 * across refreshes: 'password' for every session before this); action codes can name a second
 * address (an email change to verify, or the address a recovery replaces).
 */
export const identityCoreMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('identity_sessions')
      .addColumn('provider', 'text', (column) => column.notNull().defaultTo('password'))
      .execute();
    await db.schema.alterTable('identity_oob_codes').addColumn('new_email', 'text').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.alterTable('identity_oob_codes').dropColumn('new_email').execute();
    await db.schema.alterTable('identity_sessions').dropColumn('provider').execute();
  },
};
