/** The passkeys feature's tables. Times are epoch milliseconds. */
export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter at its last use (0: it keeps none). */
  counter: number;
  /** JSON array of transport hints. */
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** Outstanding ceremony challenges: single use, short-lived, only their hash kept. */
export interface PasskeyChallengesTable {
  challenge_hash: string;
  purpose: ChallengePurpose;
  user_id: string | null;
  expires_at: number;
}

/** The sessions a passkey opened (ended when it is removed). */
export interface PasskeySessionsTable {
  session_id: string;
  passkey_id: string;
}

export type ChallengePurpose = 'registration' | 'sign-in';

export interface PasskeysTables {
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  passkey_sessions: PasskeySessionsTable;
}
