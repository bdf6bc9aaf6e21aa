import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

const bump = 'update read_version set version = version + 1 where id = 1';

/**
 * A profile change shows at once on every page that shows it, in every process (DESIGN §9.6,
 * issue 39.5): the read version (migration 0011) also moves when an author's picture changes, not
 * only the name, and when a profile's slug or bio does (`author_profiles`, migration 0420).
 */
export const profileReadVersionMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    if (await isPostgres(db)) {
      // bump_read_version() is migration 0011's.
      await sql.raw('drop trigger users_read_version on users').execute(db);
      await sql
        .raw(
          'create trigger users_read_version after update of display_name, photo_url on users for each statement execute function bump_read_version()',
        )
        .execute(db);
      await sql
        .raw(
          'create trigger author_profiles_read_version after insert or update or delete on author_profiles for each statement execute function bump_read_version()',
        )
        .execute(db);
    } else {
      await sql.raw('drop trigger users_read_version').execute(db);
      await sql
        .raw(
          `create trigger users_read_version after update of display_name, photo_url on users
           when old.display_name is not new.display_name or old.photo_url is not new.photo_url begin ${bump}; end`,
        )
        .execute(db);
      for (const event of ['insert', 'update', 'delete']) {
        await sql
          .raw(
            `create trigger author_profiles_read_version_${event} after ${event} on author_profiles begin ${bump}; end`,
          )
          .execute(db);
      }
    }
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    if (await isPostgres(db)) {
      await sql.raw('drop trigger author_profiles_read_version on author_profiles').execute(db);
      await sql.raw('drop trigger users_read_version on users').execute(db);
      await sql
        .raw(
          'create trigger users_read_version after update of display_name on users for each statement execute function bump_read_version()',
        )
        .execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) {
        await sql.raw(`drop trigger author_profiles_read_version_${event}`).execute(db);
      }
      await sql.raw('drop trigger users_read_version').execute(db);
      await sql
        .raw(
          `create trigger users_read_version after update of display_name on users when old.display_name is not new.display_name begin ${bump}; end`,
        )
        .execute(db);
    }
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function isPostgres(db: Kysely<any>): Promise<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
