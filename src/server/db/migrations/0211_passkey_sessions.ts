import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Which passkey opened which session, so removing a passkey can end them. Both sides cascade:
 * a session that ends, or a passkey removed, takes its row with it.
 */
export const passkeySessionsMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('passkey_sessions')
      .addColumn('session_id', 'text', (column) =>
        column.primaryKey().references('identity_sessions.id').onDelete('cascade'),
      )
      .addColumn('passkey_id', 'text', (column) => column.notNull().references('passkeys.id').onDelete('cascade'))
      .execute();
    await db.schema.createIndex('passkey_sessions_passkey_id').on('passkey_sessions').column('passkey_id').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('passkey_sessions').execute();
  },
};
