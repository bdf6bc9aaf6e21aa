import { Outlet } from 'react-router';
import { useAuth } from '../auth/useAuth.ts';
import { TopBar } from './TopBar.tsx';

export function AppLayout() {
  const { state } = useAuth();
  return (
    <div className="flex min-h-dvh flex-col">
      <TopBar />
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-6 sm:px-6">
        {/* Spec §2: screens appear only once the sign-in state is known (no flash of the wrong screen). */}
        {state.status === 'unknown' ? <div aria-busy="true" /> : <Outlet />}
      </main>
    </div>
  );
}
