import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The audit log (docs/product.md, Audit log): one row per moderation or membership action,
 * appended and never changed. No foreign keys: a row outlives the accounts, articles and
 * invitations it names.
 */
export const auditLogMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('at', 'bigint', (column) => column.notNull())
      // NULL: the operator's admin command, or the system.
      .addColumn('actor_uid', 'text')
      .addColumn('action', 'text', (column) => column.notNull())
      .addColumn('target_type', 'text', (column) => column.notNull())
      .addColumn('target_id', 'text', (column) => column.notNull())
      // A JSON object, as text on both databases.
      .addColumn('detail', 'text', (column) => column.notNull())
      .execute();
    // Newest-first keyset paging: ORDER BY at DESC, id DESC with (at, id) < cursor.
    await db.schema.createIndex('audit_log_at_id').on('audit_log').columns(['at', 'id']).execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('audit_log').execute();
  },
};
