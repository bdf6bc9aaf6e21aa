import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * One author's articles, newest first (`GET /api/articles?author=`, the author page): a keyset
 * range on (author_id, date desc, id desc), as the home list walks (date desc, id desc). It
 * replaces the author_id index, whose every use (deleting an account's articles) it serves too.
 */
export const articlesByAuthorMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createIndex('articles_author_date_id')
      .on('articles')
      .columns(['author_id', 'date desc', 'id desc'])
      .execute();
    await db.schema.dropIndex('articles_author_id').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.createIndex('articles_author_id').on('articles').column('author_id').execute();
    await db.schema.dropIndex('articles_author_date_id').execute();
  },
};
