import { requestTimeoutFor } from './authTiming.ts';
import { AUTH_CHANNEL_NAME, AuthSession } from './authSession.ts';
import { createIdentityClient } from './identityClient.ts';
import { localStoragePendingRevoke } from './pendingRevoke.ts';
import { localStorageSessionHint } from './sessionHint.ts';
import { SIGNED_IN_COOKIE } from '../../shared/signedInCookie.ts';

/** The one session of this page, wired to the real fetch, the page's timeout and the other tabs. */
export function createBrowserSession(): AuthSession {
  const client = createIdentityClient({
    fetch: (input, init) => fetch(input, init),
    timeoutMs: requestTimeoutFor(navigator as Navigator & { userAgentData?: { mobile?: boolean } }),
  });
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(AUTH_CHANNEL_NAME) : null;
  const storage = typeof localStorage === 'object' ? localStorage : undefined;
  const hint = localStorageSessionHint(storage);
  if (justSignedInWithProvider()) hint.remember(true);
  return new AuthSession({ client, channel, hint, pendingRevoke: localStoragePendingRevoke(storage) });
}

/**
 * Whether a provider sign-in's callback has just set the session cookie (it leaves a readable
 * note, SIGNED_IN_COOKIE): then the page asks the server even when localStorage has no note,
 * as after a sign-in started by a link rather than the login page's button. The note is
 * removed once read.
 */
function justSignedInWithProvider(): boolean {
  // A hint only: a cookie whose name merely ends so would make the page ask once, no more.
  const present = typeof document === 'object' && document.cookie.includes(`${SIGNED_IN_COOKIE}=1`);
  if (present) document.cookie = `${SIGNED_IN_COOKIE}=; Max-Age=0; Path=/`;
  return present;
}
