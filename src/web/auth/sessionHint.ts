/**
 * A yes/no note in localStorage: "this browser may hold a session cookie". Not a credential (the
 * cookie is HttpOnly and the server decides); it lets an anonymous visitor's page skip the
 * v1/token round trip (and its 400) at load, so the first screen appears sooner.
 */
export interface SessionHint {
  mayHaveSession(): boolean;
  remember(hasSession: boolean): void;
}

const KEY = 'inkwell:may-have-session';

export function localStorageSessionHint(storage: Storage | undefined): SessionHint {
  return {
    mayHaveSession() {
      try {
        return storage?.getItem(KEY) === '1';
      } catch {
        return true; // storage blocked: ask the server
      }
    },
    remember(hasSession) {
      try {
        if (hasSession) storage?.setItem(KEY, '1');
        else storage?.removeItem(KEY);
      } catch {
        // Storage blocked or full: the page simply asks the server every time.
      }
    },
  };
}
