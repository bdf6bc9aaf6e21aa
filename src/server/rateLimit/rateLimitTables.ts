/** One fixed-window counter; `bucket` is a hash of the rule name and key, never the key itself. */
export interface RateLimitCountersTable {
  bucket: string;
  count: number;
  /** Epoch ms when the current window began. */
  window_start: number;
  /** Epoch ms after which the row may be deleted. */
  expires_at: number;
}

export interface RateLimitTables {
  rate_limit_counters: RateLimitCountersTable;
}
