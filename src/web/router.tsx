import { createElement, lazy, useLayoutEffect, type ComponentType } from 'react';
import { BrowserRouter, Route, Routes, useLocation, useNavigationType } from 'react-router';
import { AppLayout } from './components/AppLayout.tsx';
import { HomePage } from './articles/HomePage.tsx';
import { RequireAuth } from './auth/RequireAuth.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { screens, type ServedScreenName } from '../shared/routes.ts';
import type { ScreenLoaders } from './screensAhead.ts';

// Declarative routing: React Router's data mode costs ~18 kB gzip more, which the home page
// budget (docs/architecture.md) cannot carry. The home page ships in the main bundle; every other screen
// loads on demand, and is fetched ahead (screensAhead.ts) so its first visit shows no blank page.
// One loader per screen of the table (routes.ts), importing the module its screenCode.ts entry
// names: a bundler needs the import's text, and the build's budget check fails when a screen's
// module has no chunk of its own (scripts/bundleBudgetPlugin.ts).
export const screenModules = {
  article: () => import('./articles/ArticlePage.tsx'),
  editor: () => import('./articles/ArticleEditorPage.tsx'),
  login: () => import('./account/LoginPage.tsx'),
  signup: () => import('./account/SignupPage.tsx'),
  forgotPassword: () => import('./account/ForgotPasswordPage.tsx'),
  resetPassword: () => import('./account/ResetPasswordPage.tsx'),
  profile: () => import('./account/ProfilePage.tsx'),
  author: () => import('./authors/AuthorPage.tsx'),
  action: () => import('./account/EmailActionPage.tsx'),
  admin: () => import('./admin/AdminPage.tsx'),
  tag: () => import('./tags/TagPage.tsx'),
  search: () => import('./search/SearchPage.tsx'),
} satisfies ScreenLoaders;

/** A lazy screen from the module's named export (one helper, not an adapter per screen: decision 0181). */
function lazyScreen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

/**
 * A screen loaded on demand that can also be loaded before the first render: the screen the
 * server rendered into the page is taken over only once its code is here (main.tsx). A lazy
 * screen would suspend during the take-over, and the sign-in state arriving meanwhile makes
 * React throw the served markup away and render it again (a visible flash).
 */
function preloadable(load: () => Promise<ComponentType>) {
  let loaded: ComponentType | undefined;
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  const Screen = () => createElement(loaded ?? Lazy);
  Screen.preload = async () => {
    loaded = await load();
  };
  return Screen;
}

const ArticlePage = preloadable(() => screenModules.article().then((m) => m.ArticlePage));
const AuthorPage = preloadable(() => screenModules.author().then((m) => m.AuthorPage));
const TagPage = preloadable(() => screenModules.tag().then((m) => m.default));
const SearchPage = preloadable(() => screenModules.search().then((m) => m.default));

/** Loads the code of a screen the server rendered, before the app takes the page over. */
export async function preloadServedScreen(kind: ServedScreenName): Promise<void> {
  const served: Record<ServedScreenName, { preload(): Promise<void> } | undefined> = {
    article: ArticlePage,
    author: AuthorPage,
    tag: TagPage,
    search: SearchPage,
    home: undefined,
  };
  await served[kind]?.preload();
}

const ArticleEditorPage = lazyScreen(screenModules.editor, 'ArticleEditorPage');
const LoginPage = lazyScreen(screenModules.login, 'LoginPage');
const SignupPage = lazyScreen(screenModules.signup, 'SignupPage');
const ForgotPasswordPage = lazyScreen(screenModules.forgotPassword, 'ForgotPasswordPage');
const ResetPasswordPage = lazyScreen(screenModules.resetPassword, 'ResetPasswordPage');
const EmailActionPage = lazyScreen(screenModules.action, 'EmailActionPage');
const AdminPage = lazyScreen(screenModules.admin, 'AdminPage');
const ProfilePage = lazyScreen(screenModules.profile, 'ProfilePage');

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
          <Route path={screens.home} element={<HomePage />} />
          <Route path={screens.article} element={<ArticlePage />} />
          <Route path={screens.author} element={<AuthorPage />} />
          <Route path={screens.login} element={<LoginPage />} />
          <Route path={screens.signup} element={<SignupPage />} />
          <Route path={screens.forgotPassword} element={<ForgotPasswordPage />} />
          <Route path={screens.resetPassword} element={<ResetPasswordPage />} />
          <Route path={screens.action} element={<EmailActionPage />} />
          <Route path={screens.tag} element={<TagPage />} />
          <Route path={screens.search} element={<SearchPage />} />
          {/* Signed-in only (docs/product.md). */}
          <Route element={<RequireAuth />}>
            <Route path={screens.profile} element={<ProfilePage />} />
            <Route path={screens.editor} element={<ArticleEditorPage />} />
          </Route>
          {/* Editors and owners; anyone else, signed out too, gets the 404 page (AdminPage decides). */}
          <Route path={screens.admin} element={<AdminPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
