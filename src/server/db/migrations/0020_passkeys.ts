import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Passkeys (WebAuthn credentials) and their ceremonies' challenges, in the database so that any
 * process may finish a ceremony another one started.
 * (Sessions remember how they were signed in since migration 0012.)
 */
export const passkeysMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('passkeys')
      // The credential id (base64url), as the authenticator names it: unique across accounts.
      .addColumn('id', 'text', (column) => column.primaryKey())
      // Cascade as a backstop; deleting an account also removes them through the identity hook.
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      // COSE public key, base64url.
      .addColumn('public_key', 'text', (column) => column.notNull())
      .addColumn('counter', 'bigint', (column) => column.notNull())
      // JSON array of transport hints ("internal", "hybrid"...), offered back to the browser.
      .addColumn('transports', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('passkeys_user_id').on('passkeys').column('user_id').execute();

    await db.schema
      .createTable('passkey_challenges')
      // SHA-256 of the challenge: the challenge itself travels only to the browser.
      .addColumn('challenge_hash', 'text', (column) => column.primaryKey())
      // 'registration' or 'sign-in'.
      .addColumn('purpose', 'text', (column) => column.notNull())
      // The account a registration (or a re-authentication) is for; NULL for a plain sign-in.
      .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('passkey_challenges_expires_at')
      .on('passkey_challenges')
      .column('expires_at')
      .execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('passkey_challenges').execute();
    await db.schema.dropTable('passkeys').execute();
  },
};
