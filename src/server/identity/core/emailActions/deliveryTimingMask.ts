/**
 * Makes a reset request for an unknown email look like one for a known email: it waits about
 * as long as recent real deliveries took, and fails when real deliveries are failing.
 * See docs/decisions/0002-reset-email-timing.md.
 */
export interface DeliveryTimingMask {
  /** Records how a real delivery went. */
  record(outcome: { durationMs: number; failed: boolean }, now: number): void;
  /** What an unknown-email request should do: wait this long, then fail or not. */
  imitate(now: number): { waitMs: number; fail: boolean };
}

const SAMPLES_KEPT = 20;
// With no real delivery seen yet, imitate a quick local SMTP relay.
const DEFAULT_WAIT_MS = 150;
// A failure this recent means the mail system is still considered down.
const FAILURE_MEMORY_MS = 5 * 60 * 1000;

export function createDeliveryTimingMask(random: () => number = Math.random): DeliveryTimingMask {
  const durations: number[] = [];
  let lastOutcome: { failed: boolean; at: number } | undefined;
  return {
    record(outcome, now) {
      durations.push(outcome.durationMs);
      if (durations.length > SAMPLES_KEPT) durations.shift();
      lastOutcome = { failed: outcome.failed, at: now };
    },
    imitate(now) {
      const waitMs = durations.length === 0 ? DEFAULT_WAIT_MS : durations[Math.floor(random() * durations.length)]!;
      const fail = lastOutcome !== undefined && lastOutcome.failed && now - lastOutcome.at < FAILURE_MEMORY_MS;
      return { waitMs, fail };
    },
  };
}
