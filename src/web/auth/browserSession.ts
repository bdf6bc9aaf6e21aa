import { requestTimeoutFor } from './authTiming.ts';
import { AUTH_CHANNEL_NAME, AuthSession } from './authSession.ts';
import { createIdentityClient } from './identityClient.ts';
import { localStorageSessionHint } from './sessionHint.ts';

/** The one session of this page, wired to the real fetch, the page's timeout and the other tabs. */
export function createBrowserSession(): AuthSession {
  const client = createIdentityClient({
    fetch: (input, init) => fetch(input, init),
    timeoutMs: requestTimeoutFor(navigator as Navigator & { userAgentData?: { mobile?: boolean } }),
  });
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(AUTH_CHANNEL_NAME) : null;
  const hint = localStorageSessionHint(typeof localStorage === 'object' ? localStorage : undefined);
  return new AuthSession({ client, channel, hint });
}
