import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AuthProvider } from './auth/AuthProvider.tsx';
import { createBrowserSession } from './auth/browserSession.ts';
import { router } from './router.tsx';
import './styles.css';

// Ask the server about the session cookie before React even renders: screens wait for the answer.
const session = createBrowserSession();
void session.restore();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AuthProvider session={session}>
      <RouterProvider router={router} />
    </AuthProvider>
  </StrictMode>,
);
