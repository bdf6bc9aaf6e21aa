import type { AuditTables } from '../audit/auditTables.ts';
import type { ReportsTables } from '../reports/reportsTables.ts';
import type { CommentsTables } from '../comments/commentsTables.ts';
import type { NewslettersTables } from '../newsletters/newslettersTables.ts';
import type { FederationTables } from '../federation/federationTables.ts';
import type { UnsubscribeTables } from '../unsubscribe/unsubscribeTables.ts';
import type { ArticlesTables } from '../articles/articlesTables.ts';
import type { AuthorsTables } from '../authors/authorsTables.ts';
import type { IdentityTables } from '../identity/core/identityTables.ts';
import type { ProvidersTables } from '../identity/providers/providersTables.ts';
import type { ImagesTables } from '../images/imagesTables.ts';
import type { PasskeysTables } from '../passkeys/passkeysTables.ts';
import type { RateLimitTables } from '../rateLimit/rateLimitTables.ts';
import type { TwoStepTables } from '../identity/twoStep/twoStepTables.ts';
import type { RolesTables } from '../roles/invitationsTables.ts';
import type { MovedInTables } from '../moving/importing/movedInTables.ts';
import type { SettingsTables } from '../settings/settingsTables.ts';

/**
 * The whole database as Kysely sees it: one interface per feature, composed here.
 * Each feature declares its own tables next to its repository and only queries those.
 */
export interface DatabaseSchema
  extends
    IdentityTables,
    ProvidersTables,
    RateLimitTables,
    ArticlesTables,
    AuthorsTables,
    ImagesTables,
    PasskeysTables,
    TwoStepTables,
    RolesTables,
    AuditTables,
    ReportsTables,
    CommentsTables,
    UnsubscribeTables,
    NewslettersTables,
    MovedInTables,
    SettingsTables,
    FederationTables {}
