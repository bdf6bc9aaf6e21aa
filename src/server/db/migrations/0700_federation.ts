import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Federation (DESIGN.md §9.4; decision 0700). The blog's ActivityPub keys (one row per kind, so
 * every process signs with the same ones); Fedify's key–value store (cached remote keys and
 * documents, inbox idempotence) and its message queue (deliveries and received activities:
 * claimed with a lease, so a killed process leaves its claims to another); the followers (a
 * remote actor and where to deliver to it); likes and reposts of articles; blocked domains and
 * actors.
 */
export const federationMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('federation_keys')
      .addColumn('kind', 'text', (column) => column.primaryKey())
      .addColumn('private_jwk', 'text', (column) => column.notNull())
      .addColumn('public_jwk', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('federation_kv')
      .addColumn('key', 'text', (column) => column.primaryKey())
      .addColumn('value', 'text', (column) => column.notNull())
      .addColumn('expires_at', 'bigint')
      .execute();
    await db.schema
      .createTable('federation_queue')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('message', 'text', (column) => column.notNull())
      // Due time, and while claimed the end of the claim's lease.
      .addColumn('run_at', 'bigint', (column) => column.notNull())
      .addColumn('claims', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('federation_queue_run_at').on('federation_queue').columns(['run_at', 'id']).execute();
    await db.schema
      .createTable('federation_followers')
      .addColumn('actor_id', 'text', (column) => column.primaryKey())
      .addColumn('handle', 'text', (column) => column.notNull())
      .addColumn('domain', 'text', (column) => column.notNull())
      .addColumn('inbox', 'text', (column) => column.notNull())
      .addColumn('shared_inbox', 'text')
      .addColumn('follow_id', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('federation_followers_created_at')
      .on('federation_followers')
      .columns(['created_at', 'actor_id'])
      .execute();
    await db.schema.createIndex('federation_followers_domain').on('federation_followers').column('domain').execute();
    await db.schema.createIndex('federation_followers_inbox').on('federation_followers').column('inbox').execute();
    await db.schema
      .createIndex('federation_followers_shared_inbox')
      .on('federation_followers')
      .column('shared_inbox')
      .execute();
    await db.schema
      .createTable('federation_reactions')
      .addColumn('activity_id', 'text', (column) => column.primaryKey())
      .addColumn('article_id', 'text', (column) => column.notNull().references('articles.id').onDelete('cascade'))
      .addColumn('actor_id', 'text', (column) => column.notNull())
      .addColumn('domain', 'text', (column) => column.notNull())
      // like | announce
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    // One like and one repost per actor and article, however often it arrives.
    await db.schema
      .createIndex('federation_reactions_one_per_actor')
      .on('federation_reactions')
      .columns(['article_id', 'kind', 'actor_id'])
      .unique()
      .execute();
    await db.schema.createIndex('federation_reactions_actor').on('federation_reactions').column('actor_id').execute();
    await db.schema
      .createTable('federation_blocks')
      // domain | actor
      .addColumn('kind', 'text', (column) => column.notNull())
      .addColumn('value', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('federation_blocks_pk', ['kind', 'value'])
      .execute();
    // Likes and reposts are shown with the article's comments (from the read cache): they move
    // the read version (migration 0011) as comments do.
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql
        .raw(
          'create trigger federation_reactions_read_version after insert or update or delete on federation_reactions for each statement execute function bump_read_version()',
        )
        .execute(db);
    } else {
      for (const event of ['insert', 'update', 'delete']) {
        await sql
          .raw(
            `create trigger federation_reactions_read_version_${event} after ${event} on federation_reactions begin update read_version set version = version + 1 where id = 1; end`,
          )
          .execute(db);
      }
    }
  },
};
