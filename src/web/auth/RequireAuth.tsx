import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '../../shared/routes.ts';
import { useAuth } from './useAuth.ts';

/**
 * Guards the signed-in-only screens (spec §2): signed-out visitors go to /login, which sends them
 * back here afterwards. Use as a layout route (renders the child route) or around `children`.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'unknown') return <div className="min-h-64" aria-busy="true" />;
  if (state.status === 'signedOut') return <Navigate to={paths.login} state={{ from: location }} replace />;
  return children ?? <Outlet />;
}
