import { useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { AuthContextValue } from './authTypes.ts';
import type { AuthSession } from './authSession.ts';
import { AuthSessionContext } from './useAuthSession.ts';
import { AuthContext } from './useAuth.ts';

/** Puts the page's session into React: screens re-render on every sign-in state change. */
export function AuthProvider({ session, children }: { session: AuthSession; children: ReactNode }) {
  const state = useSyncExternalStore(
    (onChange) => session.onAuthStateChanged(onChange),
    () => session.state,
  );
  const value = useMemo<AuthContextValue>(() => ({ state, getIdToken: () => session.getIdToken() }), [state, session]);
  return (
    <AuthSessionContext value={session}>
      <AuthContext value={value}>{children}</AuthContext>
    </AuthSessionContext>
  );
}
