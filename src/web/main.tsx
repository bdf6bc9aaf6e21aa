import { StrictMode } from 'react';
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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AuthProvider session={session}>
      <AppRouter />
    </AuthProvider>
  </StrictMode>,
);
