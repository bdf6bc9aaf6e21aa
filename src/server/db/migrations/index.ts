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
import { passkeySessionsMigration } from './0211_passkey_sessions.ts';
import { pendingSecondStepsMigration } from './0240_pending_second_steps.ts';
import { tagsAndSearchMigration } from './0280_tags_and_search.ts';
import { twoStepMigration } from './0320_two_step.ts';
import { rolesAndInvitationsMigration } from './0260_roles_and_invitations.ts';
import { federatedIdentitiesMigration } from './0340_federated_identities.ts';
import { originFreeImagesMigration } from './0360_origin_free_images.ts';
import { articleStatusMigration } from './0400_article_status.ts';
import { auditLogMigration } from './0410_audit_log.ts';
import { reportsMigration } from './0411_reports.ts';
import { authorProfilesMigration } from './0420_author_profiles.ts';
import { excerptBlockBreaksMigration } from './0500_excerpt_block_breaks.ts';
import { addressClaimsMigration } from './0550_address_claims.ts';
import { profileReadVersionMigration } from './0553_profile_read_version.ts';
import { sessionParityMigration } from './0560_session_parity.ts';
import { commentsMigration } from './0600_comments.ts';
import { newslettersMigration } from './0650_newsletters.ts';
import { federationMigration } from './0700_federation.ts';
import { movedInMigration } from './0720_moved_in.ts';
import { headingOutlineMigration } from './0893_heading_outline.ts';
import { unsubscribeMigration } from './0601_unsubscribe.ts';
import { tablesLinksCaptionsMigration } from './0660_tables_links_captions.ts';
import { siteSettingsMigration } from './0840_site_settings.ts';
import { writersDeskMigration } from './0850_writers_desk.ts';

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
  '0211_passkey_sessions': passkeySessionsMigration,
  '0240_pending_second_steps': pendingSecondStepsMigration,
  '0260_roles_and_invitations': rolesAndInvitationsMigration,
  '0280_tags_and_search': tagsAndSearchMigration,
  '0320_two_step': twoStepMigration,
  '0340_federated_identities': federatedIdentitiesMigration,
  '0360_origin_free_images': originFreeImagesMigration,
  '0400_article_status': articleStatusMigration,
  '0410_audit_log': auditLogMigration,
  '0411_reports': reportsMigration,
  '0420_author_profiles': authorProfilesMigration,
  '0500_excerpt_block_breaks': excerptBlockBreaksMigration,
  '0550_address_claims': addressClaimsMigration,
  '0553_profile_read_version': profileReadVersionMigration,
  '0560_session_parity': sessionParityMigration,
  '0600_comments': commentsMigration,
  '0601_unsubscribe': unsubscribeMigration,
  '0650_newsletters': newslettersMigration,
  '0660_tables_links_captions': tablesLinksCaptionsMigration,
  '0700_federation': federationMigration,
  '0720_moved_in': movedInMigration,
  '0840_site_settings': siteSettingsMigration,
  '0850_writers_desk': writersDeskMigration,
  '0893_heading_outline': headingOutlineMigration,
};
