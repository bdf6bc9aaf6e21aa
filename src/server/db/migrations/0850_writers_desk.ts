import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The writer's desk (DESIGN.md §9.6, decision 0850):
 *
 * - `custom_excerpt`: the author's own excerpt (at most 300 characters), or null. The shown
 *   excerpt stays in `excerpt` (cards, meta descriptions, feeds read it as before): the custom
 *   one when there is one, else the one made from the text.
 * - `publish_at`: epoch milliseconds at which a scheduled article is published. A scheduled
 *   article is stored as a draft with a `publish_at` (the API calls it `scheduled`): the status
 *   column's CHECK cannot be widened on SQLite without rebuilding the table.
 * - `publish_newsletter` (0 or 1): whether the scheduled publication sends the newsletter
 *   (the `newsletter: false` of the write that scheduled it).
 * - The scheduler's poll reads due articles on an index of the scheduled ones alone.
 */
export const writersDeskMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema.alterTable('articles').addColumn('custom_excerpt', 'text').execute();
    await db.schema.alterTable('articles').addColumn('publish_at', 'bigint').execute();
    await db.schema
      .alterTable('articles')
      .addColumn('publish_newsletter', 'integer', (column) => column.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createIndex('articles_publish_at')
      .on('articles')
      .column('publish_at')
      .where(sql.ref('publish_at'), 'is not', null)
      .execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('articles_publish_at').execute();
    for (const column of ['publish_newsletter', 'publish_at', 'custom_excerpt']) {
      await db.schema.alterTable('articles').dropColumn(column).execute();
    }
  },
};
