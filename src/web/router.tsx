import { lazy, useLayoutEffect } from 'react';
import { BrowserRouter, Route, Routes, useLocation, useNavigationType } from 'react-router';
import { AppLayout } from './components/AppLayout.tsx';
import { HomePage } from './articles/HomePage.tsx';
import { RequireAuth } from './auth/RequireAuth.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

// Declarative routing: React Router's data mode costs ~18 kB gzip more, which the home page
// budget (DESIGN.md §6) cannot carry. The home page ships in the main bundle; every other screen
// loads on demand, and is fetched ahead (below) so its first visit shows no blank page.
const screens = {
  article: () => import('./articles/ArticlePage.tsx'),
  editor: () => import('./articles/ArticleEditorPage.tsx'),
  login: () => import('./account/LoginPage.tsx'),
  signup: () => import('./account/SignupPage.tsx'),
  forgotPassword: () => import('./account/ForgotPasswordPage.tsx'),
  resetPassword: () => import('./account/ResetPasswordPage.tsx'),
  profile: () => import('./account/ProfilePage.tsx'),
};

const ArticlePage = lazy(() => screens.article().then((m) => ({ default: m.ArticlePage })));
const ArticleEditorPage = lazy(() => screens.editor().then((m) => ({ default: m.ArticleEditorPage })));
const LoginPage = lazy(() => screens.login().then((m) => ({ default: m.LoginPage })));
const SignupPage = lazy(() => screens.signup().then((m) => ({ default: m.SignupPage })));
const ForgotPasswordPage = lazy(() => screens.forgotPassword().then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => screens.resetPassword().then((m) => ({ default: m.ResetPasswordPage })));
const ProfilePage = lazy(() => screens.profile().then((m) => ({ default: m.ProfilePage })));

const fetchAhead = (load: () => Promise<unknown>) => void load().catch(() => undefined);

// Once the page has loaded and the browser is idle, the small screens' code is fetched; the
// editor's (the Markdown renderer, ~70 kB) only when a link to it is pointed at, touched or
// focused, which is still a few hundred milliseconds before the click.
function fetchScreensAhead() {
  const whenIdle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1_000));
  whenIdle(() => {
    for (const [name, load] of Object.entries(screens)) if (name !== 'editor') fetchAhead(load);
  });
  const onIntent = (event: Event) => {
    if (event.target instanceof Element && event.target.closest('a[href^="/article-update"]'))
      fetchAhead(screens.editor);
  };
  for (const type of ['pointerover', 'focusin', 'touchstart'])
    document.addEventListener(type, onIntent, { passive: true });
}
if (document.readyState === 'complete') fetchScreensAhead();
else window.addEventListener('load', fetchScreensAhead, { once: true });

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
