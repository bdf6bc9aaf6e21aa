import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Newsletters (DESIGN.md §9.3; decision 0650). Subscribers are addresses, with or without an
 * account: `pending` until the confirmation mail's button is pressed (double opt-in),
 * `confirmed`, or `bounced` once the mail server refused them for good. Unsubscribing is the
 * unsubscribe feature's opt-out of the list `newsletter` (migration 0601), recipient = the
 * subscriber's id.
 *
 * A send is made in the transaction of an article's first publication, with one delivery row per
 * confirmed subscriber: the outbox. Deliveries are claimed by any server process (a lease, so a
 * process killed mid-send leaves its claims to be taken again once the lease ends) and end
 * `sent`, `failed` (a permanent refusal, or temporary ones too many times) or `skipped` (the
 * subscriber left before their turn).
 */
export const newslettersMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('newsletter_subscribers')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('email', 'text', (column) => column.notNull().unique())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('uid', 'text')
      .addColumn('confirm_token_hash', 'text', (column) => column.unique())
      .addColumn('confirm_expires_at', 'bigint')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('confirmed_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('newsletter_subscribers_status')
      .on('newsletter_subscribers')
      .columns(['status', 'id'])
      .execute();
    await db.schema.createIndex('newsletter_subscribers_uid').on('newsletter_subscribers').column('uid').execute();
    await db.schema
      .createTable('newsletter_sends')
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('article_id', 'text', (column) => column.notNull().unique())
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('total', 'integer', (column) => column.notNull())
      .execute();
    await db.schema
      .createTable('newsletter_deliveries')
      .addColumn('send_id', 'text', (column) => column.notNull())
      .addColumn('subscriber_id', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', (column) => column.notNull())
      .addColumn('last_error', 'text')
      .addColumn('finished_at', 'bigint')
      .addPrimaryKeyConstraint('newsletter_deliveries_pk', ['send_id', 'subscriber_id'])
      .execute();
    // What a claim looks for: due queued rows, and claims whose lease has run out.
    await db.schema
      .createIndex('newsletter_deliveries_due')
      .on('newsletter_deliveries')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createIndex('newsletter_deliveries_subscriber')
      .on('newsletter_deliveries')
      .column('subscriber_id')
      .execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('newsletter_deliveries').execute();
    await db.schema.dropTable('newsletter_sends').execute();
    await db.schema.dropTable('newsletter_subscribers').execute();
  },
};
