import { ARTICLE_PAGE_DEFAULT_LIMIT } from './articlePaging.ts';
import { articlePath, articlesListPath } from './articlesApiPaths.ts';
import type { Role } from './roles.ts';

/**
 * One screen of the web app (DESIGN.md §8.6): where it is, who fetches its code ahead, whether the
 * server renders it, and what it asks the API first. What only the build and the server's shell
 * read of its code (module, landing, budget) stands beside it in screenCode.ts (decision 0762).
 */
export interface ScreenRecord {
  /** Its route pattern (docs/product.md): `:name` one segment, `:name?` an optional last one. */
  path: string;
  /**
   * Whose browser fetches its code ahead when idle, so that their next screen shows at once:
   * `idle` everyone's (the reading screens and the way in), `signedIn` (once someone is), or the least
   * role that may use it (staff screens, once someone with that role is signed in). `intent`: on a
   * pointer or focus on a link or form to it, a few hundred milliseconds before the click (heavy
   * code, or screens few visitors go to next). The idle set for a signed-out visitor has a budget (§6).
   */
  codeAhead: 'idle' | 'signedIn' | Role | 'intent';
  /**
   * The server renders it into the page (decision 0301), from data its `ServedScreen` (servedScreen.ts)
   * carries: the page reads the same to everyone and shows before the app's code runs.
   */
  serverRendered?: true;
  /**
   * The API path (under /api) it reads first, from its path's one parameter: the server's shell
   * preloads it and the app prefetches it at boot, both through this function.
   */
  firstData?: (parameter: string) => string;
}

/**
 * The web app's screens, one record each (docs/product.md): the router mounts them, the server
 * answers their paths with the HTML shell (anything else gets the shell with 404) and its
 * preload hints, the app prefetches their first data and fetches their code ahead. The table
 * rides in the home page's bundle: a field only the build or the server reads goes in screenCode.ts.
 */
export const screenTable = {
  home: {
    path: '/',
    codeAhead: 'idle',
    serverRendered: true,
    firstData: () => articlesListPath({ limit: ARTICLE_PAGE_DEFAULT_LIMIT }),
  },
  article: {
    path: '/article/:id',
    codeAhead: 'idle',
    serverRendered: true,
    firstData: articlePath,
  },
  login: { path: '/login', codeAhead: 'idle' },
  signup: { path: '/signup', codeAhead: 'idle' },
  /** Linked from the login screen only. */
  forgotPassword: { path: '/forgot-password', codeAhead: 'intent' },
  /** Reached from a reset email's link, never from another screen. */
  resetPassword: { path: '/reset-password', codeAhead: 'intent' },
  profile: { path: '/profile', codeAhead: 'signedIn' },
  /** The editor: a new article without an id, an existing one with it. Its code carries the Markdown renderer. */
  editor: { path: '/article-update/:id?', codeAhead: 'intent' },
  /**
   * An author's page at their slug (decision 0420); a uid or an old slug redirects there. No first
   * data: the list is read by uid, which the slug does not say (the page arrives server-rendered).
   */
  author: {
    path: '/author/:slug',
    codeAhead: 'idle',
    serverRendered: true,
  },
  /** Where email action links land (verify, change and recover an email), never reached from another screen. */
  action: { path: '/action', codeAhead: 'intent' },
  /** Members and invitations, for editors and owners (others see the 404 page). */
  admin: { path: '/admin', codeAhead: 'editor' },
  /**
   * One tag's articles (DESIGN.md §8.5): from an article's tag links, on a pointer or focus.
   * Server-rendered, so that it reads without script (§9.6); its first data is for a visit by a link.
   */
  tag: {
    path: '/tag/:slug',
    codeAhead: 'intent',
    serverRendered: true,
    firstData: (slug) => articlesListPath({ tag: slug, limit: ARTICLE_PAGE_DEFAULT_LIMIT }),
  },
  /** Search results for `?q=`: from the top bar's form, fetched when its box gets the focus. */
  search: { path: '/search', codeAhead: 'intent', serverRendered: true },
} as const satisfies Record<string, ScreenRecord>;

export type ScreenName = keyof typeof screenTable;

/** The screens the server renders into the page (their records say `serverRendered`). */
export type ServedScreenName = {
  [Name in ScreenName]: (typeof screenTable)[Name] extends { serverRendered: true } ? Name : never;
}[ScreenName];

/** Each screen's route pattern, by name. */
export const screens = Object.fromEntries(Object.entries(screenTable).map(([name, screen]) => [name, screen.path])) as {
  [Name in ScreenName]: (typeof screenTable)[Name]['path'];
};

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

const screenMatchers = (Object.entries(screenTable) as Array<[ScreenName, ScreenRecord]>).map(
  ([name, screen]) => [name, screen, patternToRegExp(screen.path)] as const,
);

/** The screen at a path (no query string) and its path's parameter, or null when no screen is there. */
export function screenAt(
  pathname: string,
): { name: ScreenName; screen: ScreenRecord; parameter: string | null } | null {
  for (const [name, screen, pattern] of screenMatchers) {
    const match = pattern.exec(pathname);
    if (match) return { name, screen, parameter: idFrom(match) };
  }
  return null;
}

/**
 * The API path (under /api) the screen at `pathname` reads first, or null: the server's shell
 * preloads `/api` + it, and the app prefetches it at boot (articlePrefetch.ts), so both ask for
 * the same URL.
 */
export function firstDataPath(pathname: string): string | null {
  const found = screenAt(pathname);
  if (!found?.screen.firstData) return null;
  // A pattern with a parameter always captures it; the home screen's function takes none.
  return found.screen.firstData(found.parameter ?? '');
}

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
