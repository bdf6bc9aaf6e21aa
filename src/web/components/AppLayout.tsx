import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { TopBar } from './TopBar.tsx';

export function AppLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <TopBar />
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-6 sm:px-6">
        {/* A screen's code is loading: keep the layout still rather than flash a spinner. */}
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
