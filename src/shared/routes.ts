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
  author: (uid: string) => `/author/${encodeURIComponent(uid)}`,
  /** Where email action links land (verify, change and recover an email; DESIGN.md §5). */
  action: '/action',
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
  /^\/author\/[^/]+$/,
  /^\/action$/,
];

/** True when the path (no query string) is one of the app's screens. */
export function isAppRoute(pathname: string): boolean {
  const normalised = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return appRoutePatterns.some((pattern) => pattern.test(normalised));
}

const ARTICLE_PATH = /^\/article\/([^/]+)\/*$/;
const EDIT_ARTICLE_PATH = /^\/article-update\/([^/]+)\/*$/;
const AUTHOR_PATH = /^\/author\/([^/]+)\/*$/;

/**
 * The article id of an article screen's path (`/article/:id`), or null for other paths.
 * A segment that does not decode comes back as it is: no article has such an id.
 */
export function matchArticlePath(pathname: string): string | null {
  return idFrom(ARTICLE_PATH.exec(pathname));
}

/** The article id of the editor's path for an existing article (`/article-update/:id`), or null. */
export function matchEditArticlePath(pathname: string): string | null {
  return idFrom(EDIT_ARTICLE_PATH.exec(pathname));
}

/** The uid of an author page's path (`/author/:uid`), or null. */
export function matchAuthorPath(pathname: string): string | null {
  return idFrom(AUTHOR_PATH.exec(pathname));
}

function idFrom(match: RegExpExecArray | null): string | null {
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}
