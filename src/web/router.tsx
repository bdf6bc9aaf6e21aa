import { createBrowserRouter } from 'react-router';
import { AppLayout } from './components/AppLayout.tsx';
import { articleLoader, homeLoader } from './articles/articleLoaders.ts';
import { HomePage } from './articles/HomePage.tsx';
import { RequireAuth } from './auth/RequireAuth.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

// The home page ships in the main bundle; every other screen loads on demand.
// Loaders live here, not in the lazy modules, so a screen's API call runs while its code downloads.
export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      { index: true, loader: homeLoader, element: <HomePage /> },
      {
        path: 'article/:id',
        loader: articleLoader,
        // Shown on a first visit while the screen's code downloads (the loader itself never waits).
        hydrateFallbackElement: <div aria-busy="true" className="min-h-64" />,
        lazy: { Component: async () => (await import('./articles/ArticlePage.tsx')).ArticlePage },
      },
      { path: 'login', lazy: { Component: async () => (await import('./account/LoginPage.tsx')).LoginPage } },
      { path: 'signup', lazy: { Component: async () => (await import('./account/SignupPage.tsx')).SignupPage } },
      {
        path: 'forgot-password',
        lazy: { Component: async () => (await import('./account/ForgotPasswordPage.tsx')).ForgotPasswordPage },
      },
      {
        path: 'reset-password',
        lazy: { Component: async () => (await import('./account/ResetPasswordPage.tsx')).ResetPasswordPage },
      },
      {
        // Signed-in only (spec §2).
        element: <RequireAuth />,
        children: [
          { path: 'profile', lazy: { Component: async () => (await import('./account/ProfilePage.tsx')).ProfilePage } },
          {
            path: 'article-update/:id?',
            lazy: { Component: async () => (await import('./articles/ArticleEditorPage.tsx')).ArticleEditorPage },
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
