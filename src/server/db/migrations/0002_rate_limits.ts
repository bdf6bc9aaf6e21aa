import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Fixed-window counters for rate limits, shared by every process using the database. */
export const rateLimits: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('rate_limit_counters')
      .addColumn('bucket', 'text', (column) => column.primaryKey())
      .addColumn('count', 'integer', (column) => column.notNull())
      .addColumn('window_start', 'bigint', (column) => column.notNull())
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('rate_limit_counters_expires_at')
      .on('rate_limit_counters')
      .column('expires_at')
      .execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('rate_limit_counters').execute();
  },
};
