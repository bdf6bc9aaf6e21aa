import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Sign-ins whose first factor is proven and whose second step is awaited (the identity core's
 * sign-in attempt): only the SHA-256 of the pending credential the client holds is kept.
 */
export const pendingSecondStepsMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('identity_pending_second_steps')
      .addColumn('credential_hash', 'text', (column) => column.primaryKey())
      // Cascade as a backstop; deleting an account also removes them in its transaction.
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('identity_pending_second_steps_expires_at')
      .on('identity_pending_second_steps')
      .column('expires_at')
      .execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('identity_pending_second_steps').execute();
  },
};
