import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Drafts, review and moderation (DESIGN.md §8.2, docs/decisions/0400):
 *
 * - `status`: published, draft, submitted (waiting for an editor) or hidden (taken down by an
 *   editor). Every article written before this is published.
 * - `ever_published` (0 or 1): whether `date` is already the first publication time. A draft
 *   carries its creation time until it is first published; then `date` becomes that moment
 *   once and never changes again. Existing articles were published when created.
 * - `moderation_reason`, `moderated_at`: the editor's reason and time of the last hide.
 * - The public lists read published articles only, so their keyset ranges run on
 *   (status, date desc, id desc) and, per author, (author_id, status, date desc, id desc).
 *   The old (date desc, id desc) index has no reader left and goes; (author_id, date desc,
 *   id desc) stays for an author's list of every status and for deleting an account's articles.
 */
export const articleStatusMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('articles')
      .addColumn('status', 'text', (column) =>
        column
          .notNull()
          .defaultTo('published')
          .check(sql`status in ('published', 'draft', 'submitted', 'hidden')`),
      )
      .execute();
    await db.schema
      .alterTable('articles')
      .addColumn('ever_published', 'integer', (column) => column.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable('articles').addColumn('moderation_reason', 'text').execute();
    await db.schema.alterTable('articles').addColumn('moderated_at', 'bigint').execute();
    await db.schema
      .createIndex('articles_status_date_id')
      .on('articles')
      .columns(['status', 'date desc', 'id desc'])
      .execute();
    await db.schema
      .createIndex('articles_author_status_date_id')
      .on('articles')
      .columns(['author_id', 'status', 'date desc', 'id desc'])
      .execute();
    await db.schema.dropIndex('articles_date_id').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.createIndex('articles_date_id').on('articles').columns(['date desc', 'id desc']).execute();
    await db.schema.dropIndex('articles_author_status_date_id').execute();
    await db.schema.dropIndex('articles_status_date_id').execute();
    for (const column of ['moderated_at', 'moderation_reason', 'ever_published', 'status']) {
      await db.schema.alterTable('articles').dropColumn(column).execute();
    }
  },
};
