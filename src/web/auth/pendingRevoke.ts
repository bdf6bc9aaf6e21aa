/**
 * A yes/no note in localStorage: "a Log Out could not reach the server, so the session in the
 * cookie may still be alive". Not a credential. The next load ends that session before anything
 * else, so a sign-out made offline does not leave a live refresh token behind.
 */
export interface PendingRevoke {
  isPending(): boolean;
  remember(pending: boolean): void;
}

const KEY = 'inkwell:revoke-pending';

export function localStoragePendingRevoke(storage: Storage | undefined): PendingRevoke {
  return {
    isPending() {
      try {
        return storage?.getItem(KEY) === '1';
      } catch {
        return false; // storage blocked: nothing was noted
      }
    },
    remember(pending) {
      try {
        if (pending) storage?.setItem(KEY, '1');
        else storage?.removeItem(KEY);
      } catch {
        // Storage blocked or full: the retry is lost, as before this note existed.
      }
    },
  };
}
