import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Firebase parity (issue 35, decision 0563):
 * - `identity_ended_sessions`: the refresh tokens (SHA-256) of sessions ended all at once for an
 *   account (its deletion, a password reset, two-step turned on...), with the account, kept for
 *   a session's idle lifetime, so that such a token's refresh can tell a deleted account
 *   (USER_NOT_FOUND) from an ended session (TOKEN_EXPIRED). No foreign key: the account may be gone.
 * - `identity_sessions.second_factor_id`: the enrollment id of the second step that completed
 *   the sign-in (the ID tokens' `firebase.second_factor_identifier`).
 */
export const sessionParityMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('identity_ended_sessions')
      .addColumn('token_hash', 'text', (column) => column.primaryKey())
      .addColumn('user_id', 'text', (column) => column.notNull())
      .addColumn('ended_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('identity_ended_sessions_ended_at')
      .on('identity_ended_sessions')
      .column('ended_at')
      .execute();
    await db.schema.alterTable('identity_sessions').addColumn('second_factor_id', 'text').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  async down(db: Kysely<any>) {
    await db.schema.alterTable('identity_sessions').dropColumn('second_factor_id').execute();
    await db.schema.dropTable('identity_ended_sessions').execute();
  },
};
