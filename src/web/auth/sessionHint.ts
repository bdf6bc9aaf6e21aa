import { localFlag } from './localFlag.ts';

/**
 * A yes/no note in localStorage: "this browser may hold a session cookie". Not a credential (the
 * cookie is HttpOnly and the server decides); it lets an anonymous visitor's page skip the
 * v1/token round trip (and its 400) at load, so the first screen appears sooner.
 */
export interface SessionHint {
  mayHaveSession(): boolean;
  remember(hasSession: boolean): void;
}

export function localStorageSessionHint(storage: Storage | undefined): SessionHint {
  // Storage blocked: ask the server (the page simply asks every time).
  const flag = localFlag(storage, 'inkwell:may-have-session', true);
  return { mayHaveSession: flag.isSet, remember: flag.set };
}
