import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Two-step sign-in (TOTP): each account's one factor, enrollments under way, recovery codes and
 * wrong codes given for sign-ins waiting for their second step; sessions remember whether a second step made them
 * (their ID tokens' `firebase.sign_in_second_factor`).
 */
export const twoStepMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('two_step_factors')
      // One factor per account: the key refuses a second one (SECOND_FACTOR_EXISTS).
      .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('enrollment_id', 'text', (column) => column.notNull().unique())
      .addColumn('display_name', 'text')
      // The shared secret, base32: the server must read it back to check codes, so it cannot be hashed.
      .addColumn('secret', 'text', (column) => column.notNull())
      .addColumn('enrolled_at', 'bigint', (column) => column.notNull())
      // The time step of the last code accepted: that code and older ones are refused (no replay).
      .addColumn('last_used_step', 'bigint', (column) => column.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('two_step_enrollments')
      // SHA-256 of the sessionInfo handed to the client.
      .addColumn('session_hash', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('secret', 'text', (column) => column.notNull())
      .addColumn('wrong_codes', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('two_step_enrollments_user_id').on('two_step_enrollments').column('user_id').execute();

    await db.schema
      .createTable('two_step_recovery_codes')
      // SHA-256 of the normalised code (50 random bits each: a fast hash is enough).
      .addColumn('code_hash', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('two_step_recovery_codes_user_id')
      .on('two_step_recovery_codes')
      .column('user_id')
      .execute();

    await db.schema
      .createTable('two_step_wrong_codes')
      // SHA-256 of the mfaPendingCredential (the core's pending second step) the wrong codes were given for.
      .addColumn('credential_hash', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('wrong_codes', 'integer', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('two_step_wrong_codes_expires_at')
      .on('two_step_wrong_codes')
      .column('expires_at')
      .execute();

    await db.schema.alterTable('identity_sessions').addColumn('second_factor', 'text').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.alterTable('identity_sessions').dropColumn('second_factor').execute();
    await db.schema.dropTable('two_step_wrong_codes').execute();
    await db.schema.dropTable('two_step_recovery_codes').execute();
    await db.schema.dropTable('two_step_enrollments').execute();
    await db.schema.dropTable('two_step_factors').execute();
  },
};
