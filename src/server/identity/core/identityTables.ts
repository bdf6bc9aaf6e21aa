import type { Generated, Selectable } from 'kysely';
import type { Role } from '../../../shared/roles.ts';

/** The identity feature's tables. Times are epoch milliseconds; flags are 0/1 on both dialects. */
export interface UsersTable {
  /** The uid. */
  id: string;
  /** Trimmed and lowercased; unique. */
  email: string;
  password_hash: string;
  display_name: string | null;
  photo_url: string | null;
  email_verified: number;
  disabled: number;
  created_at: number;
  last_login_at: number | null;
  password_updated_at: number;
  /** What the account may do (docs/product.md, Roles); read from here on every request. */
  role: Role;
  /** Reported as the protocol's `validSince`; ID tokens are judged by their session (decision 0020). */
  valid_since: number;
  /**
   * 1 once the address was proven by whoever holds the account's way in (a password reset, a
   * verification link opened while signed in, a provider that verified it): addressClaims.ts.
   */
  address_claimed: Generated<number>;
  /** The role of an invitation bound to the address, granted when the address is claimed. */
  claimable_role: Role | null;
}

/** One signed-in client; only the SHA-256 of its refresh token is kept. */
export interface IdentitySessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  /** When the sign-in that started this session happened. */
  auth_time: number;
  /** How that sign-in was made: the ID tokens' `firebase.sign_in_provider` ('password', 'passkey'). */
  provider: string;
  created_at: number;
  last_used_at: number;
  /** How the session was signed in (the ID token's firebase.sign_in_provider); NULL: password. */
  sign_in_provider: string | null;
  /** The second step that completed the sign-in ('totp'; `firebase.sign_in_second_factor`); NULL: none. */
  second_factor: string | null;
  /** That second step's enrollment id (`firebase.second_factor_identifier`); NULL: none. */
  second_factor_id: string | null;
}

/** Refresh tokens of sessions ended all at once for an account, kept for the idle lifetime (migration 0560). */
export interface IdentityEndedSessionsTable {
  token_hash: string;
  user_id: string;
  ended_at: number;
}

/** Signing keys: exactly one has is_current = 1 (unique index); older ones verify until retired long enough. */
export interface IdentitySigningKeysTable {
  /** 'current' for the very first key (so racing first starts agree on one), else the kid. */
  id: string;
  kid: string;
  private_jwk: string;
  public_jwk: string;
  created_at: number;
  /** 1 on the key new tokens are signed with, NULL on the others. */
  is_current: number | null;
  /** When a newer key replaced this one. */
  retired_at: number | null;
}

/** Emailed action codes (reset, verify, change, recover); only the SHA-256 of the code is kept. */
export interface IdentityOobCodesTable {
  code_hash: string;
  user_id: string;
  /** The address the code was sent for (RECOVER_EMAIL: the address it restores). */
  email: string;
  /** VERIFY_AND_CHANGE_EMAIL: the address it switches to; RECOVER_EMAIL: the address it replaces. */
  new_email: string | null;
  request_type: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Sign-ins awaiting their second factor (core/signIn/signInAttempt.ts); only the credential's SHA-256 is kept. */
export interface IdentityPendingSecondStepsTable {
  credential_hash: string;
  user_id: string;
  /** The first factor's provider, which the session will carry. */
  provider: string;
  created_at: number;
  expires_at: number;
}

/** An OpenID Connect provider's identity linked to an account (migration 0340). */
export interface FederatedIdentitiesTable {
  /** 'google.com', 'oidc.<id>'. */
  provider_id: string;
  /** The provider's `sub`: with provider_id, the primary key. */
  subject: string;
  user_id: string;
  /** What the provider last said (its `email`, `name`, `picture`), shown in providerUserInfo. */
  email: string | null;
  display_name: string | null;
  photo_url: string | null;
  created_at: number;
}

export interface IdentityTables {
  federated_identities: FederatedIdentitiesTable;
  users: UsersTable;
  identity_sessions: IdentitySessionsTable;
  identity_ended_sessions: IdentityEndedSessionsTable;
  identity_signing_keys: IdentitySigningKeysTable;
  identity_oob_codes: IdentityOobCodesTable;
  identity_pending_second_steps: IdentityPendingSecondStepsTable;
}

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<IdentitySessionsTable>;
export type OobCodeRow = Selectable<IdentityOobCodesTable>;
export type PendingSecondStepRow = Selectable<IdentityPendingSecondStepsTable>;
export type FederatedIdentityRow = Selectable<FederatedIdentitiesTable>;
