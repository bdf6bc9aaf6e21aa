import { useEffect, useState } from 'react';
import { can, isRole, type Role } from '../../shared/roles.ts';
import { readTokenClaims } from './idToken.ts';
import { useAuth } from './useAuth.ts';

/**
 * The signed-in person's role, from their ID token's `role` claim: undefined while it is read,
 * null when signed out. Only for what screens offer (the server checks the role itself on
 * every request). Read here rather than by the session so the home page's code does not carry it.
 */
export function useRole(): Role | null | undefined {
  const { state, getIdToken } = useAuth();
  const [role, setRole] = useState<Role | null | undefined>(undefined);
  const uid = state.status === 'signedIn' ? state.user.uid : null;
  useEffect(() => {
    if (state.status === 'unknown') return;
    if (uid === null) {
      setRole(null);
      return;
    }
    let current = true;
    getIdToken().then(
      (token) => {
        const claim = token === null ? undefined : readTokenClaims(token).role;
        if (current) setRole(isRole(claim) ? claim : null);
      },
      () => current && setRole(null),
    );
    return () => {
      current = false;
    };
  }, [state.status, uid, getIdToken]);
  return role;
}

/** Whether the signed-in person's role may write articles (contributors up): who is offered the editor. */
export function useMayWrite(): boolean {
  const role = useRole();
  return !!role && can(role, 'article:write');
}
