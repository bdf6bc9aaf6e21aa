import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
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
const EmailActionPage = lazy(() =>
  import('./account/EmailActionPage.tsx').then((m) => ({ default: m.EmailActionPage })),
);
const ProfilePage = lazy(() => import('./account/ProfilePage.tsx').then((m) => ({ default: m.ProfilePage })));

export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<AppLayout />}>
          <Route index element={<HomePage />} />
          <Route path="article/:id" element={<ArticlePage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="signup" element={<SignupPage />} />
          <Route path="forgot-password" element={<ForgotPasswordPage />} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route path="action" element={<EmailActionPage />} />
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
