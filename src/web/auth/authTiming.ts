/** The sign-in service's timing (docs/product.md, Sessions), in milliseconds. Tests pin each one. */

/** A request to /identity gives up after this long on a desktop browser ("short")... */
export const REQUEST_TIMEOUT_DESKTOP_MS = 30_000;
/** ...and after this long on a mobile browser ("long"): slow radios deserve more patience. */
export const REQUEST_TIMEOUT_MOBILE_MS = 60_000;
/**
 * Not the spec's: how long the page waits at load for the server to say whether the cookie holds
 * a session, before it shows the screens signed out for now (issue 15: never a blank page while
 * a call stalls). A later answer still signs the tab in.
 */
export const RESTORE_WAIT_MS = 8_000;
/** An ID token counts as expired this long before its real expiry, so it never dies in flight. */
export const TOKEN_EXPIRY_BUFFER_MS = 30_000;
/** The session refreshes its ID token this long before expiry, without waiting to be asked. */
export const PROACTIVE_REFRESH_LEAD_MS = 5 * 60_000;
/** A failed proactive refresh is retried after this long, doubling each time... */
export const REFRESH_RETRY_MIN_MS = 30_000;
/** ...but never waiting longer than this. */
export const REFRESH_RETRY_MAX_MS = 16 * 60_000;

interface NavigatorLike {
  userAgent?: string;
  userAgentData?: { mobile?: boolean };
}

/** True on phones and tablets: User-Agent Client Hints when the browser has them, else the UA string. */
export function isMobileBrowser(nav: NavigatorLike | undefined): boolean {
  if (nav === undefined) return false;
  if (typeof nav.userAgentData?.mobile === 'boolean') return nav.userAgentData.mobile;
  return /Mobi|Android/i.test(nav.userAgent ?? '');
}

export function requestTimeoutFor(nav: NavigatorLike | undefined): number {
  return isMobileBrowser(nav) ? REQUEST_TIMEOUT_MOBILE_MS : REQUEST_TIMEOUT_DESKTOP_MS;
}
