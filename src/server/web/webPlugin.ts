import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAppRoute } from '../../shared/routes.ts';

export interface WebOptions {
  /** The Vite build output: index.html and assets/. */
  distDir: string;
  /**
   * Lets features describe one of their screens: its status (e.g. 404 for an article id that
   * does not exist) and its head tags (title, description, link-preview metadata) for crawlers
   * and link previews that run no JavaScript. Returns undefined when it has no opinion.
   */
  pageHead?: (request: FastifyRequest, pathname: string) => Promise<PageHead | undefined>;
}

export interface PageHead {
  status?: number;
  /**
   * Markup for <head>, already escaped by its author. Replaces the shell's own <title> and
   * meta description.
   */
  head?: string;
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

/** Serves the single-page app: hashed assets forever-cacheable, the HTML shell never stale. */
export async function webPlugin(app: FastifyInstance, options: WebOptions) {
  const shellFile = path.join(options.distDir, 'index.html');
  if (!fs.existsSync(shellFile)) {
    throw new Error(`The web app is not built (${shellFile} is missing): run npm run build`);
  }
  const shell = fs.readFileSync(shellFile, 'utf8');
  const shellParts = splitShell(shell);
  const assetsDir = path.join(options.distDir, 'assets') + path.sep;

  await app.register(fastifyStatic, {
    root: options.distDir,
    prefix: '/',
    index: false,
    preCompressed: true,
    cacheControl: false,
    // The shell is served by the not-found handler below, with the right status.
    allowedPath: (pathName) => pathName !== '/' && pathName !== '/index.html',
    setHeaders: (reply, filePath) => {
      // Vite puts a content hash in every file name under assets/: safe to cache forever.
      const hashed = filePath.startsWith(assetsDir);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    const pathname = new URL(request.url, 'http://localhost').pathname;
    const appRoute = isAppRoute(pathname);
    const page = appRoute && options.pageHead ? await options.pageHead(request, pathname) : undefined;
    const status = page?.status ?? (appRoute ? 200 : 404);
    const html = page?.head === undefined ? shell : shellParts.before + page.head + shellParts.after;
    return reply.code(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  });
}
