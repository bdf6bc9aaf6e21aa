/**
 * The valid_since after a password change, reset or disable at `now`, reported as the
 * protocol's `validSince` (whole seconds, never going back). ID tokens are not judged by it: a
 * token names its session (`sid`), and ending the session ends the token (decision 0020).
 */
export function validSinceAfterChange(now: number, previous: number): number {
  return Math.max(Math.ceil(now / 1000) * 1000, previous + 1000);
}

/** The valid_since of a new account: the start of the current second. */
export function initialValidSince(now: number): number {
  return Math.floor(now / 1000) * 1000;
}
