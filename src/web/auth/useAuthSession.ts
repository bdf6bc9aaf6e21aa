import { createContext, useContext } from 'react';
import type { AuthSession } from './authSession.ts';

/**
 * The session itself, for the account screens (sign in, sign up, profile changes…).
 * Other screens need only useAuth(): the state and getIdToken().
 */
export const AuthSessionContext = createContext<AuthSession | null>(null);

export function useAuthSession(): AuthSession {
  const session = useContext(AuthSessionContext);
  if (session === null) throw new Error('useAuthSession() must be used inside the auth provider');
  return session;
}
