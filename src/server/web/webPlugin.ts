import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { firstDataPath, screenAt, screens, type ScreenName, type ServedScreenName } from '../../shared/routes.ts';
import { screenCode, type ScreenCode } from '../../shared/screenCode.ts';
import type { ServedScreen } from '../../shared/servedScreen.ts';
import { sendJsonResource, toResource, type JsonResource } from '../http/cachedResource.ts';
import type { ScreenInShell } from './ssrScreens.ts';

const HTML = 'text/html; charset=utf-8';

export interface WebOptions {
  /** The Vite build output: index.html and assets/. */
  distDir: string;
  /** Who describes each screen (app.ts wires the features'): see ScreenPages. */
  screenPages?: ScreenPages;
  /** Markup every shell carries in its <head> (the site's name and identity). */
  shellTags?: string;
  /**
   * Markup every shell carries at the end of its <body>, outside the app's root: no script
   * renders or needs it (the newsletter's footer form, a plain form post).
   */
  bodyEnd?: string | undefined;
  /**
   * SITE_TITLE: written into the shell's static frame (the wordmark and footer painted before
   * any script runs, `data-site-title` in index.html), so the name does not change under the
   * reader when the app takes over.
   */
  siteTitle?: string;
  /**
   * The parts of the shell that follow the site settings (decision 0841), asked for at each
   * page: the same object while nothing changed (the shell made from it is kept), a new one
   * after a change. Its title stands instead of `siteTitle`.
   */
  frame?: () => ShellFrame;
  /**
   * The <title> and description of a screen whose pageHead brings none, by HTTP status;
   * without it the built shell's own stay.
   */
  fallbackHead?: (status: number) => string;
  /**
   * Keeps a served shell (its bytes, validator and compressed copies) until the content it was
   * made from changes: the articles' read cache. Only 200 answers are kept, keyed by their
   * content, so made-up paths add nothing to it.
   */
  cached?: (key: string, build: () => Promise<JsonResource>) => Promise<JsonResource>;
  /** Renders a reading screen into the shell (ssrScreens.ts); without it the shell comes bare. */
  screenInShell?: ScreenInShell;
}

/**
 * A feature's description of one screen at its path's parameter ('' for a screen without one):
 * its status (404 for an article or author that does not exist, 301 to where it lives now) and
 * its head tags (title, description, link-preview metadata) for crawlers and link previews that
 * run no JavaScript; undefined when the screen is there as the app shows it. Its head must name
 * what the page shows (the shell is kept by it, see `cached`).
 */
export type ScreenPage = (parameter: string, request: FastifyRequest) => Promise<PageHead | undefined>;

/**
 * The one place that decides which page is a 404: a path no screen record matches is, and so is a
 * screen whose page says so; every other screen is 200. The screens the server renders
 * (`serverRendered` in routes.ts) must have a page: it brings their data.
 */
export type ScreenPages = Record<ServedScreenName, ScreenPage> & Partial<Record<ScreenName, ScreenPage>>;

/** What the site settings put into every shell (settings/siteFrame.ts makes it). */
export interface ShellFrame {
  title: string;
  /** Markup for the end of <head>. */
  head: string;
  /** Markup at the start of <body>, before the app's root. */
  bodyStart: string;
  /** Markup at the end of <body>, before bodyEnd. */
  bodyEnd: string;
}

export interface PageHead {
  status?: number;
  /** With a 3xx status: where the page lives now (a path of this site). */
  location?: string;
  /**
   * Markup for <head>, already escaped by its author. Replaces the shell's own <title> and
   * meta description.
   */
  head?: string;
  /** The data of a reading screen the server renders into the page (decision 0301); fetched only when the page is made. */
  screen?: () => Promise<ServedScreen>;
  /**
   * What else the page is made of besides its head (a list's `?cursor=`, decision 0831): part of
   * the shell cache's key, so that each page of a list is kept apart.
   */
  variant?: string;
  /**
   * The page is the one person's who loads it (their draft, decision 0830): made for this
   * request alone, never kept (`cached`), and `private, no-store` for the browser and any cache between.
   */
  private?: true;
}

// The shell's default title and description, replaced when a page brings its own.
const DEFAULT_HEAD_TAGS = [/<title>[\s\S]*?<\/title>\s*/i, /<meta\s+name="description"[^>]*>\s*/i];

/** Splits the shell around the spot where page head tags go (just before </head>). */
function splitShell(shell: string): { before: string; after: string } {
  const bare = DEFAULT_HEAD_TAGS.reduce((html, tag) => html.replace(tag, ''), shell);
  const end = bare.search(/<\/head>/i);
  if (end === -1) throw new Error('The web app shell has no </head>');
  return { before: bare.slice(0, end), after: bare.slice(end) };
}

// The frame's elements that show the site's name (Wordmark.tsx and Footer.tsx render the same).
const SITE_TITLE_ELEMENT = /(<span\b[^>]*\bdata-site-title=""[^>]*>)[^<]*(<\/span>)/g;

// The feed's link in the head: feed readers and browsers offer it under this title.
const FEED_LINK_TITLE = /(<link rel="alternate" type="application\/atom\+xml" title=")[^"]*(")/;

/** The shell with the site's name in its static frame and as its feed link's title. */
export function shellWithSiteTitle(shell: string, title: string | undefined): string {
  return title === undefined
    ? shell
    : shell
        .replace(SITE_TITLE_ELEMENT, (_, open: string, close: string) => open + escapeAttribute(title) + close)
        .replace(FEED_LINK_TITLE, (_, open: string, close: string) => open + escapeAttribute(title) + close);
}

// The icon the build links (index.html); a frame with an icon of its own replaces it.
const BUILT_ICON = /<link rel="icon"[^>]*>\s*/;

/** The shell with the frame's navigation before the app's root and its footer after it. */
function shellWithFrame(shell: string, frame: ShellFrame | undefined): string {
  if (frame === undefined) return shell;
  const withIcon = frame.head.includes('rel="icon"') ? shell.replace(BUILT_ICON, '') : shell;
  return withIcon.replace(/<body>/i, (body) => body + frame.bodyStart).replace('</body>', `${frame.bodyEnd}</body>`);
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The shell with `<link rel="preload" as="fetch">` hints for `dataUrls` and
 * `<link rel="modulepreload">` hints for `modules`, at the end of its head.
 */
export function shellWithPreloads(shell: string, dataUrls: string[], modules: string[] = []): string {
  if (dataUrls.length === 0 && modules.length === 0) return shell;
  // crossorigin: fetch() requests are CORS-mode, and a preload is only reused by a request of the same mode.
  const links = [
    ...dataUrls.map((url) => `<link rel="preload" as="fetch" href="${escapeAttribute(url)}" crossorigin>`),
    ...modules.map((url) => `<link rel="modulepreload" crossorigin href="${escapeAttribute(url)}">`),
  ];
  return shell.replace('</head>', `${links.join('')}</head>`);
}

interface ManifestEntry {
  file: string;
  imports?: string[];
}

/**
 * For each landing screen of the screen table (code loaded on demand, but a visitor may arrive on
 * it directly), its chunk and the chunks it imports statically, from Vite's build manifest: the
 * shell preloads them so they download with the main bundle instead of after it runs.
 */
function landingScreenChunks(distDir: string, shell: string): Map<ScreenName, string[]> {
  const chunks = new Map<ScreenName, string[]>();
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) return chunks;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestEntry>;
  for (const [name, screen] of Object.entries(screenCode) as Array<[ScreenName, ScreenCode]>) {
    const entry = screen.landing && manifest[screen.module];
    if (!entry) continue;
    const files = [entry.file, ...(entry.imports ?? []).map((key) => manifest[key]?.file)].filter(
      // What the shell loads anyway (the main bundle and its imports) needs no hint.
      (file): file is string => file !== undefined && !shell.includes(file),
    );
    chunks.set(
      name,
      files.map((file) => `/${file}`),
    );
  }
  return chunks;
}

// The app's screens as Fastify routes: the shared table's patterns are in a syntax both
// routers read (`:id`, and `:id?` for an optional last segment).
const SCREEN_ROUTES = Object.values(screens);

/** Serves the single-page app: hashed assets forever-cacheable, the HTML shell never stale. */
export async function webPlugin(app: FastifyInstance, options: WebOptions) {
  const shellFile = path.join(options.distDir, 'index.html');
  if (!fs.existsSync(shellFile)) {
    throw new Error(`The web app is not built (${shellFile} is missing): run npm run build`);
  }
  const fileShell = fs.readFileSync(shellFile, 'utf8');
  const screenChunks = landingScreenChunks(options.distDir, fileShell);
  // The shell as the site settings make it, made again only when they change (a new frame).
  const shellOf = (frame: ShellFrame | undefined) => {
    const builtShell = shellWithFrame(shellWithSiteTitle(fileShell, frame?.title ?? options.siteTitle), frame).replace(
      '</body>',
      `${options.bodyEnd ?? ''}</body>`,
    );
    const shellTags = (options.shellTags ?? '') + (frame?.head ?? '');
    const parts = splitShell(builtShell);
    parts.before += shellTags;
    return { parts, shell: builtShell.replace('</head>', `${shellTags}</head>`) };
  };
  let made: { frame: ShellFrame | undefined; generation: number } & ReturnType<typeof shellOf> = {
    frame: undefined,
    generation: 0,
    ...shellOf(undefined),
  };
  const currentShell = () => {
    const frame = options.frame?.();
    if (frame !== made.frame) made = { frame, generation: made.generation + 1, ...shellOf(frame) };
    return made;
  };
  const assetsDir = path.join(options.distDir, 'assets') + path.sep;

  await app.register(fastifyStatic, {
    root: options.distDir,
    prefix: '/',
    index: false,
    preCompressed: true,
    cacheControl: false,
    // The shell is served by the not-found handler below, with the right status.
    // The build manifest (.vite/) is for the server, not for visitors.
    allowedPath: (pathName) => pathName !== '/' && pathName !== '/index.html' && !pathName.startsWith('/.vite/'),
    setHeaders: (reply, filePath) => {
      // Vite puts a content hash in every file name under assets/: safe to cache forever.
      const hashed = filePath.startsWith(assetsDir);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });

  const sendShell = async (request: FastifyRequest, reply: FastifyReply) => {
    const { pathname, search } = new URL(request.url, 'http://localhost');
    const shown = screenAt(pathname);
    const page = shown ? await options.screenPages?.[shown.name]?.(shown.parameter ?? '', request) : { status: 404 };
    const status = page?.status ?? 200;
    const head = page?.head ?? options.fallbackHead?.(status);
    const { shell, parts: shellParts, generation } = currentShell();
    const html = head === undefined ? shell : shellParts.before + head + shellParts.after;
    if (page?.location !== undefined && status >= 300 && status < 400) {
      return reply.code(status).header('location', page.location).header('cache-control', 'no-cache').send();
    }
    if (status !== 200) {
      return reply.code(status).header('cache-control', 'no-cache').type(HTML).send(html);
    }
    const screen = options.screenInShell && page?.screen;
    // A rendered screen carries its data: nothing for the app to fetch first. Otherwise the first
    // data of the screen's record, the very URL the app prefetches at boot (articlePrefetch.ts).
    const firstData = screen ? null : firstDataPath(pathname);
    const dataUrls = firstData === null ? [] : [`/api${firstData}`];
    const modules = (shown && screenChunks.get(shown.name)) ?? [];
    const build = async () => {
      const rendered = screen ? options.screenInShell!(html, pathname, await screen(), search) : undefined;
      return toResource(shellWithPreloads(rendered ?? html, dataUrls, modules), HTML);
    };
    // The key is what the bytes are made of, not the path: /article/%41… and /article/A… are one entry.
    // The frame's generation too: a shell made from settings older than the cache's stamp is not served as new.
    const key = `shell\n${generation}\n${head ?? ''}\n${page?.variant ?? ''}\n${dataUrls.join(' ')}\n${modules.join(' ')}`;
    if (page?.private) return sendJsonResource(request, reply, await build(), 'private, no-store');
    const resource = options.cached ? await options.cached(key, build) : await build();
    return sendJsonResource(request, reply, resource);
  };

  // The screens answer with the shell straight away: through the static wildcard they would
  // first look for a file of that name (and its .br and .gz), and each miss allocates errors,
  // which tripled the memory and quartered the throughput of /article/:id under load.
  // Their bodies are compressed once and kept (http/cachedResource.ts), not by the plugin on every request.
  for (const screen of SCREEN_ROUTES) app.get(screen, { compress: false }, sendShell);

  app.setNotFoundHandler(async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    return sendShell(request, reply);
  });
}
