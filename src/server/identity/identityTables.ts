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
  /** ID tokens issued (iat) before this instant are refused. */
  valid_since: number;
}

/** One signed-in client; only the SHA-256 of its refresh token is kept. */
export interface IdentitySessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  /** When the password sign-in that started this session happened. */
  auth_time: number;
  created_at: number;
  last_used_at: number;
  /** How the session was signed in (the ID token's firebase.sign_in_provider); NULL: password. */
  sign_in_provider: string | null;
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

/** Out-of-band codes (password reset); only the SHA-256 of the code is kept. */
export interface IdentityOobCodesTable {
  code_hash: string;
  user_id: string;
  email: string;
  request_type: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface IdentityTables {
  users: UsersTable;
  identity_sessions: IdentitySessionsTable;
  identity_signing_keys: IdentitySigningKeysTable;
  identity_oob_codes: IdentityOobCodesTable;
}
