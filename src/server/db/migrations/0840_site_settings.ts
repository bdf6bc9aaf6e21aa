import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

const bump = 'update read_version set version = version + 1 where id = 1';

/**
 * The site settings an owner changes from /admin (DESIGN.md §9.6, decision 0840): one row (id 1),
 * made by the first change; a column left null keeps its first value from the environment
 * (SITE_TITLE, SITE_DESCRIPTION) or the built-in default. Any change moves the read version
 * (migration 0011), as an article's does: every process answers from its caches only while the
 * version is unchanged, so page heads, masthead, feed and mail show a change on their next request.
 */
export const siteSettingsMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('site_settings')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('title', 'text')
      .addColumn('description', 'text')
      .addColumn('icon_url', 'text')
      .addColumn('accent_color', 'text')
      // JSON: [{label, url}], in order.
      .addColumn('navigation', 'text')
      .addColumn('footer', 'text')
      .addColumn('updated_at', 'bigint', (column) => column.notNull())
      .execute();
    if (await isPostgres(db)) {
      // bump_read_version() is migration 0011's.
      await sql
        .raw(
          'create trigger site_settings_read_version after insert or update or delete on site_settings for each statement execute function bump_read_version()',
        )
        .execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) {
        await sql
          .raw(`create trigger site_settings_read_version_${event} after ${event} on site_settings begin ${bump}; end`)
          .execute(db);
      }
    }
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    if (await isPostgres(db)) {
      await sql.raw('drop trigger site_settings_read_version on site_settings').execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) {
        await sql.raw(`drop trigger site_settings_read_version_${event}`).execute(db);
      }
    }
    await db.schema.dropTable('site_settings').execute();
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function isPostgres(db: Kysely<any>): Promise<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
