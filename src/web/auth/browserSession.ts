import { requestTimeoutFor } from './authTiming.ts';
import { AUTH_CHANNEL_NAME, AuthSession } from './authSession.ts';
import { createIdentityClient } from './identityClient.ts';
import { localStoragePendingRevoke } from './pendingRevoke.ts';
import { localStorageSessionHint } from './sessionHint.ts';

/** The one session of this page, wired to the real fetch, the page's timeout and the other tabs. */
export function createBrowserSession(): AuthSession {
  const client = createIdentityClient({
    fetch: (input, init) => fetch(input, init),
    timeoutMs: requestTimeoutFor(navigator as Navigator & { userAgentData?: { mobile?: boolean } }),
  });
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(AUTH_CHANNEL_NAME) : null;
  const storage = typeof localStorage === 'object' ? localStorage : undefined;
  const hint = localStorageSessionHint(storage);
  return new AuthSession({ client, channel, hint, pendingRevoke: localStoragePendingRevoke(storage) });
}
