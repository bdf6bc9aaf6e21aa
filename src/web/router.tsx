import { lazy, useLayoutEffect } from 'react';
import { BrowserRouter, Route, Routes, useLocation, useNavigationType } from 'react-router';
import { AppLayout } from './components/AppLayout.tsx';
import { HomePage } from './articles/HomePage.tsx';
import { RequireAuth } from './auth/RequireAuth.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

// Declarative routing: React Router's data mode costs ~18 kB gzip more, which the home
// page budget (DESIGN.md §6) cannot carry. The home page ships in the main bundle; every
// other screen loads on demand.
const ArticlePage = lazy(() => import('./articles/ArticlePage.tsx').then((m) => ({ default: m.ArticlePage })));
const ArticleEditorPage = lazy(() =>
  import('./articles/ArticleEditorPage.tsx').then((m) => ({ default: m.ArticleEditorPage })),
);
const LoginPage = lazy(() => import('./account/LoginPage.tsx').then((m) => ({ default: m.LoginPage })));
const SignupPage = lazy(() => import('./account/SignupPage.tsx').then((m) => ({ default: m.SignupPage })));
const ForgotPasswordPage = lazy(() =>
  import('./account/ForgotPasswordPage.tsx').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('./account/ResetPasswordPage.tsx').then((m) => ({ default: m.ResetPasswordPage })),
);
const ProfilePage = lazy(() => import('./account/ProfilePage.tsx').then((m) => ({ default: m.ProfilePage })));

// The app puts the page where it belongs itself: top for a new screen, the kept place when Back
// returns to the home list (useArticleFeed). The browser's own restoring would run before the
// list is back and land short.
if ('scrollRestoration' in history) history.scrollRestoration = 'manual';

/** A new screen (a link followed, not Back or Forward) starts at the top of the page. */
function ScrollToTopOnPush() {
  // Each new history entry has its own key: the Home link followed from home goes to the top too.
  const { key } = useLocation();
  const type = useNavigationType();
  useLayoutEffect(() => {
    if (type !== 'POP') window.scrollTo(0, 0);
  }, [key, type]);
  return null;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <ScrollToTopOnPush />
      <Routes>
        <Route element={<AppLayout />}>
          <Route index element={<HomePage />} />
          <Route path="article/:id" element={<ArticlePage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="signup" element={<SignupPage />} />
          <Route path="forgot-password" element={<ForgotPasswordPage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          {/* Signed-in only (spec §2). */}
          <Route element={<RequireAuth />}>
            <Route path="profile" element={<ProfilePage />} />
            <Route path="article-update/:id?" element={<ArticleEditorPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
