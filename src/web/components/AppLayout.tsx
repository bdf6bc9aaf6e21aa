import { Suspense, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useAuth } from '../auth/useAuth.ts';
import { Footer } from './Footer.tsx';
import { ScreenErrorBoundary } from './ScreenErrorBoundary.tsx';
import { TopBar } from './TopBar.tsx';
import { useFocusHeadingOnNavigate } from './useFocusHeadingOnNavigate.ts';
import { useServedPage } from '../served/servedPage.ts';

export function AppLayout() {
  const { state } = useAuth();
  const served = useServedPage().screen !== null;
  // A new screen gets a fresh boundary, so one failure does not stick to every later page.
  const location = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  useFocusHeadingOnNavigate(mainRef);
  // The footer starts below the first screen's fold: the screen's content arrives after the frame
  // is painted, and a footer already in view would be pushed down (a layout shift).
  return (
    <>
      <div className="flex min-h-dvh flex-col">
        <TopBar />
        <main id="main" ref={mainRef} className="mx-auto w-full max-w-5xl flex-1 px-4 pt-6 pb-16 sm:px-6 sm:pt-10">
          {/* docs/product.md: screens appear only once the sign-in state is known (no flash of the wrong screen).
            A page the server rendered (home, article, author) reads the same to everyone and is shown at once
            (decision 0301). */}
          {state.status === 'unknown' && !served ? (
            <div aria-busy="true" />
          ) : (
            // One boundary for every screen, above the per-screen error boundary: the router navigates in a
            // transition, and a boundary already showing a screen keeps showing it while the next screen's
            // code loads (a new boundary would show its empty fallback: the blank main of issue 26 point 9).
            // The fallback shows only on the first screen of a visit, in the frame, and keeps the layout still.
            <Suspense fallback={<div aria-busy="true" />}>
              <ScreenErrorBoundary key={location.pathname}>
                <Outlet />
              </ScreenErrorBoundary>
            </Suspense>
          )}
        </main>
      </div>
      <Footer />
    </>
  );
}
