import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Comments (DESIGN.md §9.2, decision 0600). A comment's author is a local account
 * (`author_uid`) or, later, a remote (fediverse) actor (`remote_author_*`, with the remote
 * object's id): exactly one of the two while the comment is not deleted. `parent_id` names the
 * top-level comment a reply belongs to (one level of replies). A deleted comment that has replies
 * stays as a row with status `deleted`, no author and no body.
 *
 * Comments move the read version (migration 0011) as articles do, so every process's read cache
 * drops what a comment changed. Reports (migration 0411) gain their target: an article or a
 * comment; the one-open-report-per-person rule holds per target.
 */
export const commentsMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('comments')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('article_id', 'text', (column) => column.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('parent_id', 'text', (column) => column.references('comments.id').onDelete('cascade'))
      // A local author; NULL for a remote author, and once deleted.
      .addColumn('author_uid', 'text', (column) => column.references('users.id').onDelete('set null'))
      // A remote author (ActivityPub actor): its id (URI), name, profile page and picture.
      .addColumn('remote_author_id', 'text')
      .addColumn('remote_author_name', 'text')
      .addColumn('remote_author_url', 'text')
      .addColumn('remote_author_photo_url', 'text')
      // The remote object's id (a Note's URI): the same reply arriving twice is one comment.
      .addColumn('remote_object_id', 'text', (column) => column.unique())
      // Markdown as written, and its rendering (stored on write: reads never render).
      .addColumn('body', 'text', (column) => column.notNull())
      .addColumn('body_html', 'text', (column) => column.notNull())
      // published | pending | hidden | deleted
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('hidden_reason', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('edited_at', 'bigint')
      .execute();
    // An article's threads in order; a thread's replies; the pending queue; a person's comments.
    await db.schema
      .createIndex('comments_article_thread')
      .on('comments')
      .columns(['article_id', 'parent_id', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('comments_parent_id').on('comments').columns(['parent_id', 'created_at']).execute();
    await db.schema
      .createIndex('comments_status_created_at')
      .on('comments')
      .columns(['status', 'created_at'])
      .execute();
    await db.schema.createIndex('comments_author_uid').on('comments').column('author_uid').execute();

    await db.schema
      .alterTable('reports')
      .addColumn('target_type', 'text', (column) => column.notNull().defaultTo('article'))
      .execute();
    await db.schema
      .alterTable('reports')
      .addColumn('comment_id', 'text', (column) => column.references('comments.id').onDelete('cascade'))
      .execute();
    await db.schema.dropIndex('reports_one_open_per_reporter').execute();
    await db.schema
      .createIndex('reports_one_open_per_reporter')
      .on('reports')
      .columns(['reporter_uid', 'article_id'])
      .unique()
      .where(sql<boolean>`status = 'open' and comment_id is null`)
      .execute();
    await db.schema
      .createIndex('reports_one_open_per_reporter_of_comment')
      .on('reports')
      .columns(['reporter_uid', 'comment_id'])
      .unique()
      .where(sql<boolean>`status = 'open' and comment_id is not null`)
      .execute();
    await db.schema.createIndex('reports_comment_id').on('reports').column('comment_id').execute();

    const bump = 'update read_version set version = version + 1 where id = 1';
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      // bump_read_version() is migration 0011's.
      await sql
        .raw(
          'create trigger comments_read_version after insert or update or delete on comments for each statement execute function bump_read_version()',
        )
        .execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) {
        await sql
          .raw(`create trigger comments_read_version_${event} after ${event} on comments begin ${bump}; end`)
          .execute(db);
      }
    }
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('reports_comment_id').execute();
    await db.schema.dropIndex('reports_one_open_per_reporter_of_comment').execute();
    await db.schema.dropIndex('reports_one_open_per_reporter').execute();
    await db.deleteFrom('reports').where('comment_id', 'is not', null).execute();
    await db.schema.alterTable('reports').dropColumn('comment_id').execute();
    await db.schema.alterTable('reports').dropColumn('target_type').execute();
    await db.schema
      .createIndex('reports_one_open_per_reporter')
      .on('reports')
      .columns(['reporter_uid', 'article_id'])
      .unique()
      .where(sql<boolean>`status = 'open'`)
      .execute();
    // Its triggers go with the table.
    await db.schema.dropTable('comments').execute();
  },
};
