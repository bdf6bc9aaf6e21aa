import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Articles, newest-first keyset paging, and their link to the author's account. */
export const articlesMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('articles')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('image', 'text', (column) => column.notNull())
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('description', 'text', (column) => column.notNull())
      // No cascade: deleting a user goes through the identity hook, which removes the
      // articles in the same transaction; the key makes sure none is ever left behind.
      .addColumn('author_id', 'text', (column) => column.notNull().references('users.id'))
      .addColumn('date', 'bigint', (column) => column.notNull())
      .execute();
    // Keyset paging of the newest-first list walks this index.
    await db.schema.createIndex('articles_date_id').on('articles').columns(['date desc', 'id desc']).execute();
    await db.schema.createIndex('articles_author_id').on('articles').column('author_id').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('articles').execute();
  },
};
