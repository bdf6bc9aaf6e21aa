import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Roles and invitations (docs/product.md, Roles). Every account has a role; the ones that exist
 * already are the spec's signed-in users, who publish: `author`. Invitations keep only the
 * SHA-256 of their code.
 */
export const rolesAndInvitationsMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('users')
      .addColumn('role', 'text', (column) => column.notNull().defaultTo('author'))
      .execute();
    // The owners are counted on every demotion or disable of one (the last owner stays).
    await db.schema.createIndex('users_role').on('users').column('role').execute();

    await db.schema
      .createTable('invitations')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('code_hash', 'text', (column) => column.notNull().unique())
      .addColumn('role', 'text', (column) => column.notNull())
      // Only this address may use it (lowercased); NULL: anyone holding the link.
      .addColumn('email', 'text')
      // Who made it; the invitation outlives its maker's account (NULL then).
      .addColumn('created_by', 'text', (column) => column.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('used_by', 'text', (column) => column.references('users.id').onDelete('set null'))
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('invitations_expires_at').on('invitations').column('expires_at').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('invitations').execute();
    await db.schema.dropIndex('users_role').execute();
    await db.schema.alterTable('users').dropColumn('role').execute();
  },
};
