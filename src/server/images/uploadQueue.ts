/**
 * Who may upload now. An upload holds a place from before its body is read until it is stored
 * or abandoned, so the server holds at most `places` bodies at once; the others wait with their
 * bodies unread (left in the socket: TCP pushes back on the client).
 *
 * Fair between accounts: one account holds at most `placesPerAccount` places (fewer than all,
 * so another account always finds one free) and keeps at most `waitingPerAccount` uploads
 * waiting; a freed place goes to the waiting upload whose account holds the fewest.
 */
export interface UploadQueue {
  /**
   * Waits for a place; resolves with its release, or `undefined` when the queue (or the
   * account's share of it) is full. Aborting `signal` while waiting gives the place up.
   */
  enter(account: string, signal: AbortSignal): Promise<(() => void) | undefined>;
}

export interface UploadQueueLimits {
  places: number;
  placesPerAccount: number;
  waiting: number;
  waitingPerAccount: number;
}

interface Waiter {
  account: string;
  admit: () => void;
}

export function createUploadQueue(limits: UploadQueueLimits): UploadQueue {
  const holding = new Map<string, number>();
  const waiters: Waiter[] = [];
  let held = 0;

  const count = (map: Map<string, number>, account: string) => map.get(account) ?? 0;
  const waitingOf = (account: string) => waiters.filter((w) => w.account === account).length;

  function take(account: string): () => void {
    held += 1;
    holding.set(account, count(holding, account) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      held -= 1;
      const left = count(holding, account) - 1;
      if (left === 0) holding.delete(account);
      else holding.set(account, left);
      admitNext();
    };
  }

  function admitNext(): void {
    while (held < limits.places) {
      let best: Waiter | undefined;
      for (const waiter of waiters) {
        if (count(holding, waiter.account) >= limits.placesPerAccount) continue;
        if (!best || count(holding, waiter.account) < count(holding, best.account)) best = waiter;
      }
      if (!best) return;
      waiters.splice(waiters.indexOf(best), 1);
      best.admit();
    }
  }

  return {
    enter(account, signal) {
      if (held < limits.places && count(holding, account) < limits.placesPerAccount && waiters.length === 0) {
        return Promise.resolve(take(account));
      }
      if (waiters.length >= limits.waiting || waitingOf(account) >= limits.waitingPerAccount) {
        return Promise.resolve(undefined);
      }
      return new Promise((resolve) => {
        const waiter: Waiter = {
          account,
          admit: () => {
            signal.removeEventListener('abort', leave);
            resolve(take(account));
          },
        };
        const leave = () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          resolve(undefined);
        };
        waiters.push(waiter);
        signal.addEventListener('abort', leave, { once: true });
        // An account holding no place may go ahead of waiters whose accounts hold all they may.
        admitNext();
      });
    },
  };
}
