/**
 * The web app's screens, once, as route patterns (docs/product.md): the web router mounts
 * these, the server answers them with the app shell (anything else gets the shell with 404),
 * and the link builders below fill them in.
 */
export const screens = {
  home: '/',
  article: '/article/:id',
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  profile: '/profile',
  /** The editor: a new article without an id, an existing one with it. */
  editor: '/article-update/:id?',
  /** An author's page at their slug (decision 0420); a uid or an old slug redirects there. */
  author: '/author/:slug',
  /** Where email action links land (verify, change and recover an email). */
  action: '/action',
  /** Members and invitations, for editors and owners (others see the 404 page). */
  admin: '/admin',
  /** One tag's articles (DESIGN.md §8.5). */
  tag: '/tag/:slug',
  /** Search results for `?q=`. */
  search: '/search',
} as const;

/** Fills a pattern's one parameter, encoded as a path segment. */
function fill(pattern: string, value: string): string {
  return pattern.replace(/:\w+\??$/, encodeURIComponent(value));
}

/** Links to the screens. */
export const paths = {
  home: screens.home,
  article: (id: string) => fill(screens.article, id),
  login: screens.login,
  signup: screens.signup,
  forgotPassword: screens.forgotPassword,
  resetPassword: screens.resetPassword,
  profile: screens.profile,
  newArticle: screens.editor.replace(/\/:\w+\?$/, ''),
  editArticle: (id: string) => fill(screens.editor, id),
  author: (slug: string) => fill(screens.author, slug),
  action: screens.action,
  admin: screens.admin,
  tag: (slug: string) => fill(screens.tag, slug),
  /** Search results: `?q=` the text. */
  search: screens.search,
} as const;

/**
 * A route pattern as a regular expression over a path, trailing slashes allowed: `:name` is
 * one segment and `:name?` an optional one, each captured.
 */
function patternToRegExp(pattern: string): RegExp {
  let source = '';
  for (const segment of pattern.split('/').filter((part) => part !== '')) {
    if (segment.startsWith(':')) source += segment.endsWith('?') ? '(?:/([^/]+))?' : '/([^/]+)';
    else source += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  }
  return source === '' ? /^\/$/ : new RegExp(`^${source}/*$`);
}

const screenPatterns = Object.values(screens).map(patternToRegExp);
const ARTICLE_PATH = patternToRegExp(screens.article);
const EDITOR_PATH = patternToRegExp(screens.editor);
const AUTHOR_PATH = patternToRegExp(screens.author);
// Pure: the web app never matches tag paths, so its bundle drops this.
const TAG_PATH = /* @__PURE__ */ patternToRegExp(screens.tag);

/** True when the path (no query string) is one of the app's screens. */
export function isAppRoute(pathname: string): boolean {
  return screenPatterns.some((pattern) => pattern.test(pathname));
}

/**
 * The article id of an article screen's path (`/article/:id`), or null for other paths.
 * A segment that does not decode comes back as it is: no article has such an id.
 */
export function matchArticlePath(pathname: string): string | null {
  return idFrom(ARTICLE_PATH.exec(pathname));
}

/** The article id of the editor's path for an existing article (`/article-update/:id`), or null. */
export function matchEditArticlePath(pathname: string): string | null {
  return idFrom(EDITOR_PATH.exec(pathname));
}

/** The slug (or uid, or old slug) of an author page's path (`/author/:slug`), or null. */
export function matchAuthorPath(pathname: string): string | null {
  return idFrom(AUTHOR_PATH.exec(pathname));
}

/** The slug of a tag page's path (`/tag/:slug`), or null. */
export function matchTagPath(pathname: string): string | null {
  return idFrom(TAG_PATH.exec(pathname));
}

function idFrom(match: RegExpExecArray | null): string | null {
  if (!match || match[1] === undefined) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1]!;
  }
}
