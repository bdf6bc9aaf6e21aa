import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * One-click unsubscribe (DESIGN.md §9.3, RFC 8058; decision 0600), generic by mailing list:
 * `comment-on-article` and `comment-reply` now, newsletters later. A recipient is whatever the
 * list addresses (an account's uid for notifications). Each mail carries its own random token,
 * stored only as its SHA-256; a token never expires and names only its list and recipient.
 * `mail_opt_outs` holds who asked for no more mail of a list (the profile's switches write it too).
 */
export const unsubscribeMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('unsubscribe_tokens')
      .addColumn('token_hash', 'text', (column) => column.primaryKey())
      .addColumn('list', 'text', (column) => column.notNull())
      .addColumn('recipient', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('unsubscribe_tokens_recipient')
      .on('unsubscribe_tokens')
      .columns(['recipient', 'list'])
      .execute();
    await db.schema
      .createTable('mail_opt_outs')
      .addColumn('list', 'text', (column) => column.notNull())
      .addColumn('recipient', 'text', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('mail_opt_outs_pk', ['list', 'recipient'])
      .execute();
    await db.schema.createIndex('mail_opt_outs_recipient').on('mail_opt_outs').column('recipient').execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('mail_opt_outs').execute();
    await db.schema.dropTable('unsubscribe_tokens').execute();
  },
};
