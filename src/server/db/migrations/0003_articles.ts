import type { Kysely } from 'kysely';

// Migrations see the schema as it was then, not the typed schema of today.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('articles').execute();
}
