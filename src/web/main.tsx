import { StrictMode, startTransition, useLayoutEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AuthProvider } from './auth/AuthProvider.tsx';
import { createBrowserSession } from './auth/browserSession.ts';
import { forgetArticleDrafts } from './articles/articleDraftStorage.ts';
import { prefetchForPath, primeServedScreen } from './articles/articlePrefetch.ts';
import { ServedPageContext } from './served/servedPage.ts';
import { readServedScreen } from './served/servedScreen.ts';
import { AppRouter, preloadServedScreen, screenModules } from './router.tsx';
import './styles.css';

// Start the first screen's data call and ask the server about the session cookie before React
// even renders: both run while the rest of the page loads.
// A reading screen the server rendered brings its data along: nothing to fetch.
const served = readServedScreen();
if (served) primeServedScreen(served);
else prefetchForPath(window.location.pathname);
const session = createBrowserSession();
void session.restore();
// Log Out (or account deletion) in this tab: drafts typed here (articles, comments) must not greet the next person.
session.onAuthStateChanged((state) => {
  if (state.status === 'signedOut' && session.endedByUser) forgetArticleDrafts();
});

// After the page's load, the code of the screens this visitor may go to next (screensAhead.ts).
const fetchAhead = () =>
  void import('./screensAhead.ts').then((module) => module.fetchScreensAhead(screenModules, session)).catch(() => {});
if (document.readyState === 'complete') fetchAhead();
else window.addEventListener('load', fetchAhead, { once: true });

/** The shell's static frame (index.html) stands in until React's first commit replaces it, in the same frame. */
function RemoveBootFrame() {
  useLayoutEffect(() => document.getElementById('boot-frame')?.remove(), []);
  return null;
}

// In a task of its own, after the bundle's evaluation: createRoot attaches React's event listeners
// (a few hundred), which would otherwise lengthen that one task. The transition lets React render
// the first screen in slices that yield to the browser, not as one long task (Lighthouse TBT).
const app = (
  <StrictMode>
    <RemoveBootFrame />
    <ServedPageContext value={{ screen: served }}>
      <AuthProvider session={session}>
        <AppRouter />
      </AuthProvider>
    </ServedPageContext>
  </StrictMode>
);
const root = document.getElementById('root')!;
// A server-rendered screen is taken over as it stands (decision 0301); any other starts from the boot frame.
if (served) {
  // Its code first (preloaded by the shell): taken over at once, it cannot be thrown away.
  const hydrate = () => startTransition(() => void hydrateRoot(root, app));
  void preloadServedScreen(served.kind).then(hydrate, hydrate);
} else {
  setTimeout(() => startTransition(() => createRoot(root).render(app)));
}
