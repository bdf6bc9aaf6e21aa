import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Reports of articles (docs/product.md, Reports). A report goes with its article and with its
 * reporter's account; the editor who resolved it may go first (NULL then).
 */
export const reportsMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('reports')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('article_id', 'text', (column) => column.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('reporter_uid', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      .addColumn('reason', 'text', (column) => column.notNull())
      // open | hidden | dismissed
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('resolved_at', 'bigint')
      .addColumn('resolver_uid', 'text', (column) => column.references('users.id').onDelete('set null'))
      .addColumn('note', 'text')
      .execute();
    // One open report per person per article, held by the database (two at once: one wins).
    await db.schema
      .createIndex('reports_one_open_per_reporter')
      .on('reports')
      .columns(['reporter_uid', 'article_id'])
      .unique()
      .where(sql<boolean>`status = 'open'`)
      .execute();
    // The editors' queue (by status, in order of arrival) and closing an article's open reports.
    await db.schema.createIndex('reports_status_created_at').on('reports').columns(['status', 'created_at']).execute();
    await db.schema.createIndex('reports_article_id').on('reports').column('article_id').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('reports').execute();
  },
};
