import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Sign-in with OpenID Connect providers: the identities linked to accounts (a provider's `sub`
 * signs in to one account only), and the browser flow's pending sign-ins (state, PKCE verifier,
 * nonce), kept in the database so that any process may finish a flow another one started.
 */
export const federatedIdentitiesMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time, not typed by the current schema
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('federated_identities')
      // 'google.com', 'oidc.<id>'.
      .addColumn('provider_id', 'text', (column) => column.notNull())
      // The provider's `sub` for the person (the protocol's rawId).
      .addColumn('subject', 'text', (column) => column.notNull())
      // Cascade as a backstop; deleting an account removes them in the deleting transaction.
      .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
      // What the provider said last (providerUserInfo): the address may differ from the account's.
      .addColumn('email', 'text')
      .addColumn('display_name', 'text')
      .addColumn('photo_url', 'text')
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('federated_identities_pkey', ['provider_id', 'subject'])
      // One identity per provider per account, as Firebase links them.
      .addUniqueConstraint('federated_identities_user_provider', ['user_id', 'provider_id'])
      .execute();

    await db.schema
      .createTable('oauth_pending_sign_ins')
      // SHA-256 of `state`: the value itself is only in the browser's cookie and the provider's redirect.
      .addColumn('state_hash', 'text', (column) => column.primaryKey())
      .addColumn('provider_id', 'text', (column) => column.notNull())
      .addColumn('code_verifier', 'text', (column) => column.notNull())
      .addColumn('nonce', 'text', (column) => column.notNull())
      // Where to go afterwards (a same-origin path).
      .addColumn('continue_path', 'text', (column) => column.notNull())
      // Set when a signed-in person connects the provider to their account (Connect on the profile).
      .addColumn('link_user_id', 'text', (column) => column.references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (column) => column.notNull())
      .execute();
    await db.schema
      .createIndex('oauth_pending_sign_ins_expires_at')
      .on('oauth_pending_sign_ins')
      .column('expires_at')
      .execute();
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
  async down(db: Kysely<any>) {
    await db.schema.dropTable('oauth_pending_sign_ins').execute();
    await db.schema.dropTable('federated_identities').execute();
  },
};
