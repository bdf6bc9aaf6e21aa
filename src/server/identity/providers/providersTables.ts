import type { Selectable } from 'kysely';

/** A browser sign-in waiting for the provider to send the person back (migration 0340). */
export interface OauthPendingSignInsTable {
  /** SHA-256 of `state` (base64url); the value itself is only in the browser's cookie and the redirect. */
  state_hash: string;
  provider_id: string;
  /** The PKCE verifier: never leaves the server. */
  code_verifier: string;
  nonce: string;
  /** A same-origin path to go to afterwards. */
  continue_path: string;
  /** Connect on the profile: the account the identity is linked to; NULL for a sign-in. */
  link_user_id: string | null;
  expires_at: number;
}

export interface ProvidersTables {
  oauth_pending_sign_ins: OauthPendingSignInsTable;
}

export type PendingSignInRow = Selectable<OauthPendingSignInsTable>;
