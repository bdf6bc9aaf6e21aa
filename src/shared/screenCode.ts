import type { ScreenName } from './routes.ts';

/** What the build and the server's HTML shell know of a screen's code (decision 0762). */
export interface ScreenCode {
  /**
   * Its code, under src/web/: the router's loader imports it (router.tsx, one loader per screen),
   * the bundle budgets find its chunk by it (a module without its own chunk fails the build), and
   * for a `landing` screen the server's HTML shell hints its chunk.
   */
  module: string;
  /** People arrive on it from outside (links, feeds, search engines): its shell preloads its chunk. */
  landing?: true;
  /** The JavaScript (gzip bytes) a visit to it may load, checked by the build (DESIGN.md §6). */
  jsBudgetBytes?: number;
}

/**
 * Each screen's code, by the screen table's names (routes.ts): read by the build
 * (scripts/bundleBudgetPlugin.ts) and the server (src/server/web/webPlugin.ts), never by the web
 * app, so none of it rides in the home page's bundle as the screen table does.
 */
export const screenCode = {
  home: { module: 'articles/HomePage.tsx', jsBudgetBytes: 95_000 },
  article: { module: 'articles/ArticlePage.tsx', landing: true, jsBudgetBytes: 100_000 },
  login: { module: 'account/LoginPage.tsx' },
  signup: { module: 'account/SignupPage.tsx' },
  forgotPassword: { module: 'account/ForgotPasswordPage.tsx' },
  resetPassword: { module: 'account/ResetPasswordPage.tsx' },
  profile: { module: 'account/ProfilePage.tsx' },
  editor: { module: 'articles/ArticleEditorPage.tsx' },
  author: { module: 'authors/AuthorPage.tsx', landing: true },
  action: { module: 'account/EmailActionPage.tsx' },
  admin: { module: 'admin/AdminPage.tsx' },
  tag: { module: 'tags/TagPage.tsx' },
  search: { module: 'search/SearchPage.tsx', landing: true },
} as const satisfies Record<ScreenName, ScreenCode>;
