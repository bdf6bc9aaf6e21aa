import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { AppLayout } from './components/AppLayout.tsx';
import { HomePage } from './articles/HomePage.tsx';
import { RequireAuth } from './auth/RequireAuth.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { screens } from '../shared/routes.ts';

// Declarative routing: React Router's data mode costs ~18 kB gzip more, which the home
// page budget (docs/architecture.md) cannot carry. The home page ships in the main bundle; every
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
const AuthorPage = lazy(() => import('./authors/AuthorPage.tsx').then((m) => ({ default: m.AuthorPage })));
const ProfilePage = lazy(() => import('./account/ProfilePage.tsx').then((m) => ({ default: m.ProfilePage })));

export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<AppLayout />}>
          <Route path={screens.home} element={<HomePage />} />
          <Route path={screens.article} element={<ArticlePage />} />
          <Route path={screens.author} element={<AuthorPage />} />
          <Route path={screens.login} element={<LoginPage />} />
          <Route path={screens.signup} element={<SignupPage />} />
          <Route path={screens.forgotPassword} element={<ForgotPasswordPage />} />
          <Route path={screens.resetPassword} element={<ResetPasswordPage />} />
          {/* Signed-in only (docs/product.md). */}
          <Route element={<RequireAuth />}>
            <Route path={screens.profile} element={<ProfilePage />} />
            <Route path={screens.editor} element={<ArticleEditorPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
