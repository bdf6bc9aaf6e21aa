/** The web app's screens (spec §2 and DESIGN.md §5). The server answers these with the app shell. */
export const paths = {
  home: '/',
  article: (id: string) => `/article/${encodeURIComponent(id)}`,
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  profile: '/profile',
  newArticle: '/article-update',
  editArticle: (id: string) => `/article-update/${encodeURIComponent(id)}`,
} as const;

const appRoutePatterns: RegExp[] = [
  /^\/$/,
  /^\/article\/[^/]+$/,
  /^\/login$/,
  /^\/signup$/,
  /^\/forgot-password$/,
  /^\/reset-password$/,
  /^\/profile$/,
  /^\/article-update$/,
  /^\/article-update\/[^/]+$/,
];

/** True when the path (no query string) is one of the app's screens. */
export function isAppRoute(pathname: string): boolean {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return appRoutePatterns.some((pattern) => pattern.test(normalised));
}
