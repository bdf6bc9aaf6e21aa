import { SqliteAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { renderMarkdown0006 } from './frozen/0006_renderMarkdown.ts';

// Rows rendered per statement: 3 parameters a row stays far under every parameter limit.
const BACKFILL_BATCH = 200;

/**
 * Markdown articles and uploaded images (decisions 0040 and 0041).
 * - articles gain the rendered body and the excerpt, stored on every write; existing rows are
 *   rendered here, so articles written as plain text read as before (paragraphs and line breaks).
 * - images, their files (the bytes, in the database so every process serves them and a backup
 *   holds them) and which articles use them (what the daily cleanup keeps).
 */
export const markdownAndImagesMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;

    await db.schema
      .alterTable('articles')
      .addColumn('description_html', 'text', (column) => column.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('articles')
      .addColumn('excerpt', 'text', (column) => column.notNull().defaultTo(''))
      .execute();
    await backfillRenderedArticles(db);

    await db.schema
      .createTable('images')
      .addColumn('id', 'text', (column) => column.primaryKey())
      // No cascade, as for articles: the user-deleting hook removes them in the deleting transaction.
      .addColumn('owner_id', 'text', (column) => column.notNull().references('users.id'))
      .addColumn('width', 'integer', (column) => column.notNull())
      .addColumn('height', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('images_owner_id').on('images').column('owner_id').execute();
    await db.schema.createIndex('images_created_at').on('images').column('created_at').execute();

    await db.schema
      .createTable('image_files')
      .addColumn('image_id', 'text', (column) => column.notNull().references('images.id').onDelete('cascade'))
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('content_type', 'text', (column) => column.notNull())
      .addColumn('etag', 'text', (column) => column.notNull())
      .addColumn('bytes', sqlite ? 'blob' : 'bytea', (column) => column.notNull())
      .addPrimaryKeyConstraint('image_files_pk', ['image_id', 'name'])
      .execute();

    await db.schema
      .createTable('image_uses')
      .addColumn('image_id', 'text', (column) => column.notNull().references('images.id').onDelete('cascade'))
      .addColumn('article_id', 'text', (column) => column.notNull().references('articles.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('image_uses_pk', ['image_id', 'article_id'])
      .execute();
    await db.schema.createIndex('image_uses_article_id').on('image_uses').column('article_id').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('image_uses').execute();
    await db.schema.dropTable('image_files').execute();
    await db.schema.dropTable('images').execute();
    await db.schema.alterTable('articles').dropColumn('excerpt').execute();
    await db.schema.alterTable('articles').dropColumn('description_html').execute();
  },
};

/** Renders every existing article, a batch per statement, walking the primary key. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function backfillRenderedArticles(db: Kysely<any>): Promise<void> {
  let after = '';
  for (;;) {
    const rows: { id: string; description: string }[] = await db
      .selectFrom('articles')
      .select(['id', 'description'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) return;
    const values = rows.map((row) => {
      const { html, excerpt } = renderMarkdown0006(row.description);
      return sql`(${row.id}, ${html}, ${excerpt})`;
    });
    // UPDATE ... FROM is spelled differently by the two databases; a CTE with correlated
    // subqueries reads the same on both.
    await sql`
      with rendered(id, html, excerpt) as (values ${sql.join(values)})
      update articles
      set description_html = (select html from rendered where rendered.id = articles.id),
          excerpt = (select excerpt from rendered where rendered.id = articles.id)
      where id in (select id from rendered)`.execute(db);
    after = rows.at(-1)!.id;
  }
}
