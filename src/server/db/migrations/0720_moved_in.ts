import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Where an imported article came from (DESIGN.md §9.5): the source system ('ghost',
 * 'wordpress'), its id there and its slug. A re-run of an import skips a post recorded here,
 * and a link to an old post's address is rewritten to the article it became.
 */
export const movedInMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('moved_in_articles')
      .addColumn('source', 'text', (column) => column.notNull())
      .addColumn('source_id', 'text', (column) => column.notNull())
      .addColumn('slug', 'text')
      .addColumn('article_id', 'text', (column) => column.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('imported_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('moved_in_articles_pk', ['source', 'source_id'])
      .execute();
    await db.schema.createIndex('moved_in_articles_article').on('moved_in_articles').column('article_id').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('moved_in_articles').execute();
  },
};
