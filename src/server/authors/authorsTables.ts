/** The authors feature's tables (decision 0420), as Kysely sees them. Only this feature queries them. */
export interface AuthorsTables {
  author_profiles: AuthorProfilesTable;
  author_slugs: AuthorSlugsTable;
}

/** One account's profile: its current slug and its bio. Goes with the account (ON DELETE CASCADE). */
export interface AuthorProfilesTable {
  author_id: string;
  /** The author page is `/author/{slug}`; unique. */
  slug: string;
  /** The display name `slug` was made from ('' for none): another name gets another slug. */
  slug_name: string;
  /** Plain text, at most AUTHOR_BIO_MAX_LENGTH characters; '' when not set. */
  bio: string;
}

/** Every slug an account has had: the current one and old ones (which redirect to it). */
export interface AuthorSlugsTable {
  slug: string;
  author_id: string;
  /** Epoch milliseconds. */
  created_at: number;
}
