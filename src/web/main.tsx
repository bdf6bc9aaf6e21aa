import { StrictMode, startTransition, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { AuthProvider } from './auth/AuthProvider.tsx';
import { createBrowserSession } from './auth/browserSession.ts';
import { prefetchForPath } from './articles/articlePrefetch.ts';
import { AppRouter } from './router.tsx';
import './styles.css';

// Start the first screen's data call and ask the server about the session cookie before React
// even renders: both run while the rest of the page loads.
prefetchForPath(window.location.pathname);
const session = createBrowserSession();
void session.restore();

/** The shell's static frame (index.html) stands in until React's first commit replaces it, in the same frame. */
function RemoveBootFrame() {
  useLayoutEffect(() => document.getElementById('boot-frame')?.remove(), []);
  return null;
}

// In a task of its own, after the bundle's evaluation: createRoot attaches React's event listeners
// (a few hundred), which would otherwise lengthen that one task. The transition lets React render
// the first screen in slices that yield to the browser, not as one long task (Lighthouse TBT).
setTimeout(() =>
  startTransition(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <RemoveBootFrame />
        <AuthProvider session={session}>
          <AppRouter />
        </AuthProvider>
      </StrictMode>,
    ),
  ),
);
