import { PROACTIVE_REFRESH_LEAD_MS, REFRESH_RETRY_MAX_MS, REFRESH_RETRY_MIN_MS } from './authTiming.ts';

export interface TokenRefresherOptions {
  /** Gets a new ID token; resolves to its expiry (epoch ms). */
  refresh(): Promise<number>;
  /** Whether a failed refresh is worth retrying (a network hiccup) or final (a dead session). */
  shouldRetry(error: unknown): boolean;
  now(): number;
}

/**
 * Keeps the ID token fresh without being asked: refreshes PROACTIVE_REFRESH_LEAD_MS before
 * expiry, but never sooner than 30 s after the last refresh; after a failure retries at 30 s,
 * 60 s, 120 s, … never more than 16 minutes apart.
 */
export class TokenRefresher {
  readonly #options: TokenRefresherOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #retryDelay = REFRESH_RETRY_MIN_MS;
  // Bumped by stop(): a refresh already in flight when the session ends must not re-arm the timer.
  #generation = 0;

  constructor(options: TokenRefresherOptions) {
    this.#options = options;
  }

  /** (Re)starts the schedule for a token that expires at `expiresAt`. */
  start(expiresAt: number): void {
    this.stop();
    this.#retryDelay = REFRESH_RETRY_MIN_MS;
    // Never sooner than the retry pause: a token that looks stale on arrival (unknown lifetime,
    // or shorter than the lead) would otherwise be refreshed in a tight loop.
    this.#arm(Math.max(REFRESH_RETRY_MIN_MS, expiresAt - PROACTIVE_REFRESH_LEAD_MS - this.#options.now()));
  }

  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#generation += 1;
  }

  #arm(delay: number): void {
    this.#timer = setTimeout(() => void this.#run(), delay);
  }

  async #run(): Promise<void> {
    this.#timer = undefined;
    const generation = this.#generation;
    let expiresAt: number;
    try {
      expiresAt = await this.#options.refresh();
    } catch (error) {
      if (generation !== this.#generation || !this.#options.shouldRetry(error)) return;
      const delay = this.#retryDelay;
      this.#retryDelay = Math.min(this.#retryDelay * 2, REFRESH_RETRY_MAX_MS);
      this.#arm(delay);
      return;
    }
    if (generation === this.#generation) this.start(expiresAt);
  }
}
