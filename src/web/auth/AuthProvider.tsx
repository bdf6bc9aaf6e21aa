import { useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { AuthContextValue, AuthState } from './authTypes.ts';
import type { AuthSession } from './authSession.ts';
import { AuthSessionContext } from './useAuthSession.ts';
import { AuthContext } from './useAuth.ts';

const UNKNOWN: AuthState = { status: 'unknown', user: null };

/** Puts the page's session into React: screens re-render on every sign-in state change. */
export function AuthProvider({ session, children }: { session: AuthSession; children: ReactNode }) {
  const state = useSyncExternalStore(
    (onChange) => session.onAuthStateChanged(onChange),
    () => session.state,
    // The server renders the reading screens knowing nothing of the reader's session: the page
    // is taken over in that state, then shows the real one (the top bar's button box is the same).
    () => UNKNOWN,
  );
  const value = useMemo<AuthContextValue>(() => ({ state, getIdToken: () => session.getIdToken() }), [state, session]);
  return (
    <AuthSessionContext value={session}>
      <AuthContext value={value}>{children}</AuthContext>
    </AuthSessionContext>
  );
}
