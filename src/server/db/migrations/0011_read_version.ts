import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A one-row version counter that the database itself moves whenever what the public reads show
 * can change: any insert, update or delete of articles, and a change of an author's display name.
 * Every process reads it before answering from its read cache (db/readVersion.ts), so a write
 * through any process, the admin command or a hand-run SQL statement empties every cache.
 * Triggers are standard in both databases; nothing in the application can forget to bump it.
 */
export const readVersionMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('read_version')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('version', 'bigint', (column) => column.notNull())
      .execute();
    await db.insertInto('read_version').values({ id: 1, version: 0 }).execute();
    const bump = 'update read_version set version = version + 1 where id = 1';
    if (await isPostgres(db)) {
      await sql
        .raw(
          `create function bump_read_version() returns trigger language plpgsql as $$ begin ${bump}; return null; end $$`,
        )
        .execute(db);
      // Once per statement, not per row: a batch of imported articles moves it once.
      await sql
        .raw(
          'create trigger articles_read_version after insert or update or delete on articles for each statement execute function bump_read_version()',
        )
        .execute(db);
      await sql
        .raw(
          'create trigger users_read_version after update of display_name on users for each statement execute function bump_read_version()',
        )
        .execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) {
        await sql
          .raw(`create trigger articles_read_version_${event} after ${event} on articles begin ${bump}; end`)
          .execute(db);
      }
      await sql
        .raw(
          `create trigger users_read_version after update of display_name on users when old.display_name is not new.display_name begin ${bump}; end`,
        )
        .execute(db);
    }
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    if (await isPostgres(db)) {
      await sql.raw('drop trigger articles_read_version on articles').execute(db);
      await sql.raw('drop trigger users_read_version on users').execute(db);
      await sql.raw('drop function bump_read_version()').execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) {
        await sql.raw(`drop trigger articles_read_version_${event}`).execute(db);
      }
      await sql.raw('drop trigger users_read_version').execute(db);
    }
    await db.schema.dropTable('read_version').execute();
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function isPostgres(db: Kysely<any>): Promise<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
