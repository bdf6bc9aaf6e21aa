import type { Migration } from 'kysely/migration';
import { identityMigration } from './0001_identity.ts';
import { rateLimits } from './0002_rate_limits.ts';
import { articlesMigration } from './0003_articles.ts';
import { signingKeyRotationMigration } from './0004_signing_key_rotation.ts';
import { markdownAndImagesMigration } from './0006_markdown_and_images.ts';
import { articlesByAuthorMigration } from './0010_articles_by_author.ts';
import { readVersionMigration } from './0011_read_version.ts';
import { identityCoreMigration } from './0012_identity_core.ts';
import { passkeysMigration } from './0020_passkeys.ts';
import { originFreeImagesMigration } from './0300_origin_free_images.ts';

/**
 * Every migration, in order. Names sort by their number; a migration never changes once
 * released, a new one is added instead. Each must run on both SQLite and PostgreSQL.
 */
export const migrations: Record<string, Migration> = {
  '0001_identity': identityMigration,
  '0002_rate_limits': rateLimits,
  '0003_articles': articlesMigration,
  '0004_signing_key_rotation': signingKeyRotationMigration,
  '0006_markdown_and_images': markdownAndImagesMigration,
  '0010_articles_by_author': articlesByAuthorMigration,
  '0011_read_version': readVersionMigration,
  '0012_identity_core': identityCoreMigration,
  '0020_passkeys': passkeysMigration,
  '0300_origin_free_images': originFreeImagesMigration,
};
