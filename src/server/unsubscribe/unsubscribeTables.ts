/** The unsubscribe feature's tables (migration 0601). Times are epoch milliseconds. */
export interface UnsubscribeTables {
  unsubscribe_tokens: UnsubscribeTokensTable;
  mail_opt_outs: MailOptOutsTable;
}

export interface UnsubscribeTokensTable {
  /** SHA-256 of the token, base64url: the token itself is only in the mail. */
  token_hash: string;
  list: string;
  recipient: string;
  created_at: number;
}

export interface MailOptOutsTable {
  list: string;
  recipient: string;
  created_at: number;
}
