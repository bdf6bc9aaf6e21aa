import { useRef, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '../../shared/routes.ts';
import { useAuth } from './useAuth.ts';
import { useAuthSession } from './useAuthSession.ts';

/**
 * Guards the signed-in-only screens (docs/product.md): signed-out visitors go to /login, which sends them
 * back here afterwards. Use as a layout route (renders the child route) or around `children`.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { state } = useAuth();
  const session = useAuthSession();
  const location = useLocation();
  // Whether this guard has shown its screen to a signed-in user (then a sign-out happens "here").
  const wasSignedIn = useRef(false);
  if (state.status === 'unknown') return <div className="min-h-64" aria-busy="true" />;
  if (state.status === 'signedOut') {
    // Log Out and account deletion go home (docs/product.md); React may render this guard once more
    // before that navigation commits, and it must not send the person to /login instead.
    if (wasSignedIn.current && session.endedByUser) return <Navigate to={paths.home} replace />;
    return <Navigate to={paths.login} state={{ from: location }} replace />;
  }
  wasSignedIn.current = true;
  return children ?? <Outlet />;
}
