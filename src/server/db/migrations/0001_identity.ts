import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Accounts, sessions (refresh token hashes), the signing key and reset codes. */
export const identityMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen, not typed against the live schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text')
      .addColumn('photo_url', 'text')
      .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_login_at', 'bigint')
      .addColumn('password_updated_at', 'bigint', (c) => c.notNull())
      .addColumn('valid_since', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('users_email_unique').on('users').column('email').unique().execute();

    await db.schema
      .createTable('identity_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('auth_time', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('identity_sessions_token_hash_unique')
      .on('identity_sessions')
      .column('token_hash')
      .unique()
      .execute();
    await db.schema.createIndex('identity_sessions_user_id').on('identity_sessions').column('user_id').execute();

    await db.schema
      .createTable('identity_signing_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kid', 'text', (c) => c.notNull())
      .addColumn('private_jwk', 'text', (c) => c.notNull())
      .addColumn('public_jwk', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('identity_oob_codes')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('request_type', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('identity_oob_codes_user_id').on('identity_oob_codes').column('user_id').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('identity_oob_codes').execute();
    await db.schema.dropTable('identity_signing_keys').execute();
    await db.schema.dropTable('identity_sessions').execute();
    await db.schema.dropTable('users').execute();
  },
};
