/** The newsletters feature's tables (migration 0650). Times are epoch milliseconds. */
export interface NewslettersTables {
  newsletter_subscribers: NewsletterSubscribersTable;
  newsletter_sends: NewsletterSendsTable;
  newsletter_deliveries: NewsletterDeliveriesTable;
}

export type SubscriberStatus = 'pending' | 'confirmed' | 'bounced';

export interface NewsletterSubscribersTable {
  /** 22 random base64url characters. */
  id: string;
  /** Lower-cased. */
  email: string;
  status: SubscriberStatus;
  /** The account that subscribed from its profile, if any. */
  uid: string | null;
  /** SHA-256 of the confirmation token while one is outstanding. */
  confirm_token_hash: string | null;
  confirm_expires_at: number | null;
  created_at: number;
  confirmed_at: number | null;
}

export interface NewsletterSendsTable {
  id: string;
  article_id: string;
  title: string;
  created_at: number;
  /** Deliveries made: the confirmed subscribers at the first publication. */
  total: number;
}

/**
 * One message of a send to one subscriber: `queued` (due at next_attempt_at), `sending` (claimed
 * by a process until next_attempt_at, the lease), `sent`, `failed` or `skipped`.
 */
export type DeliveryStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';

export interface NewsletterDeliveriesTable {
  send_id: string;
  subscriber_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  finished_at: number | null;
}
