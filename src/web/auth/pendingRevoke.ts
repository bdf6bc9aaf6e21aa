import { localFlag } from './localFlag.ts';

/**
 * A yes/no note in localStorage: "a Log Out could not reach the server, so the session in the
 * cookie may still be alive". Not a credential. The next load ends that session before anything
 * else, so a sign-out made offline does not leave a live refresh token behind.
 */
export interface PendingRevoke {
  isPending(): boolean;
  remember(pending: boolean): void;
}

export function localStoragePendingRevoke(storage: Storage | undefined): PendingRevoke {
  // Storage blocked: nothing was noted, and a lost note only loses the retry.
  const flag = localFlag(storage, 'inkwell:revoke-pending', false);
  return { isPending: flag.isSet, remember: flag.set };
}
