import { createContext, useContext } from 'react';
import type { AuthContextValue } from './authTypes.ts';

/** Provided by the auth provider at the root; screens read it through useAuth(). */
export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (value === null) throw new Error('useAuth() must be used inside the auth provider');
  return value;
}
