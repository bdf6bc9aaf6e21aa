/** The federation feature's tables (migration 0700). Times are epoch milliseconds. */
export interface FederationTables {
  federation_keys: FederationKeysTable;
  federation_kv: FederationKvTable;
  federation_queue: FederationQueueTable;
  federation_followers: FederationFollowersTable;
  federation_reactions: FederationReactionsTable;
  federation_blocks: FederationBlocksTable;
}

export interface FederationKeysTable {
  /** `RSASSA-PKCS1-v1_5` or `Ed25519`. */
  kind: string;
  private_jwk: string;
  public_jwk: string;
  created_at: number;
}

export interface FederationKvTable {
  /** The Fedify key's parts joined by U+001F (a character no part holds). */
  key: string;
  /** JSON. */
  value: string;
  expires_at: number | null;
}

export interface FederationQueueTable {
  id: string;
  /** JSON: one of Fedify's messages, or Inkwell's own ({ inkwell: ... }). */
  message: string;
  run_at: number;
  claims: number;
  created_at: number;
}

export interface FederationFollowersTable {
  /** The remote actor's id (URI). */
  actor_id: string;
  /** `@user@host`, as shown to staff. */
  handle: string;
  /** The actor's host, lower-cased: what a domain block matches. */
  domain: string;
  inbox: string;
  shared_inbox: string | null;
  follow_id: string;
  created_at: number;
}

export interface FederationReactionsTable {
  activity_id: string;
  article_id: string;
  actor_id: string;
  domain: string;
  kind: 'like' | 'announce';
  created_at: number;
}

export interface FederationBlocksTable {
  kind: 'domain' | 'actor';
  value: string;
  created_at: number;
}
