import zlib from 'node:zlib';
import type { Plugin } from 'vite';

import { fetchedAheadFor } from '../src/shared/codeAhead.ts';
import { screenTable, type ScreenName, type ScreenRecord } from '../src/shared/routes.ts';
import { screenCode, type ScreenCode } from '../src/shared/screenCode.ts';

interface ChunkInfo {
  code: string;
  isEntry: boolean;
  imports: string[];
  /** The module a chunk was made for (a lazily loaded screen's file), when it has one. */
  facadeModuleId?: string | null;
}

/** The files index.html itself loads: module scripts and modulepreload hints (paths relative to the output). */
export function filesNamedByHtml(html: string): string[] {
  const names: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isModuleScript = /^<script\b/.test(tag) && /\btype="module"/.test(tag);
    const isPreload = /^<link\b/.test(tag) && /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if ((isModuleScript || isPreload) && url && !/^[a-z]+:|^\/\//i.test(url)) names.push(url.replace(/^\.?\//, ''));
  }
  return names;
}

/**
 * What a visit to `/` downloads: the entry chunk, every file index.html loads or preloads,
 * and everything those import statically. Lazily loaded screens are not counted.
 */
export function homePageChunks(bundle: Record<string, ChunkInfo>, html = ''): string[] {
  const roots = [
    ...Object.entries(bundle)
      .filter(([, chunk]) => chunk.isEntry)
      .map(([name]) => name),
    ...filesNamedByHtml(html),
  ];
  return withStaticImports(bundle, roots);
}

/**
 * What a visit to a screen downloads: the home page's files, the chunk made for the screen's
 * module, and everything it imports statically. Throws when no chunk was made for the module, so
 * a renamed screen cannot take its budget with it.
 */
export function screenChunks(bundle: Record<string, ChunkInfo>, html: string, screenModule: string): string[] {
  const screen = Object.entries(bundle).filter(([, chunk]) => chunk.facadeModuleId?.endsWith(screenModule));
  if (screen.length === 0) throw new Error(`no chunk was built for ${screenModule}`);
  return withStaticImports(bundle, [...homePageChunks(bundle, html), ...screen.map(([name]) => name)]);
}

/**
 * A page with a budget of its own, plus what a signed-out visitor's browser fetches ahead when
 * idle (DESIGN.md §6). Here, not in the screen records: those ride in the home page's bundle.
 */
const IDLE_AHEAD_BUDGET_BYTES = 125_000;

/** The module (under src/web/) that fetches screens' code ahead after the page's load (main.tsx). */
const AHEAD_MODULE = 'src/web/screensAhead.ts';

/**
 * What a signed-out visitor's browser fetches ahead when idle, on any page: the fetching module
 * itself and the chunks (with their static imports) of every screen whose `codeAhead` says so.
 */
export function idleAheadChunks(bundle: Record<string, ChunkInfo>): string[] {
  const modules = [
    AHEAD_MODULE,
    ...(Object.entries(screenTable) as Array<[ScreenName, ScreenRecord]>)
      .filter(([, screen]) => fetchedAheadFor(screen, { signedIn: false }))
      .map(([name]) => `src/web/${screenCode[name].module}`),
  ];
  const roots = Object.entries(bundle)
    .filter(([, chunk]) => modules.some((module) => chunk.facadeModuleId?.endsWith(module)))
    .map(([name]) => name);
  return withStaticImports(bundle, roots);
}

function withStaticImports(bundle: Record<string, ChunkInfo>, roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !bundle[name]) return;
    seen.add(name);
    bundle[name].imports.forEach(visit);
  };
  roots.forEach(visit);
  return [...seen];
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const gzipSize = (content: string | Uint8Array) => zlib.gzipSync(content, { level: 9 }).length;

/** A screen's printed name: `home` → `Home page`, `article` → `Article page`. */
const pageName = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)} page`;

/**
 * Prints the JavaScript (and CSS) size of each page whose screen has a budget (screenCode.ts; the
 * home page: the main bundle; any other: plus its own chunk and what that imports), alone and with
 * what a signed-out visitor fetches ahead when idle, and fails the build when one is over its
 * budget, or when a screen's module has no chunk of its own (a renamed or mistyped module, or a
 * screen the router loads from another file: screenCode.ts, router.tsx).
 */
export function bundleBudget(): Plugin {
  return {
    name: 'inkwell-bundle-budget',
    apply: 'build',
    // After every generateBundle hook, so index.html (emitted by Vite's HTML plugin) is final.
    writeBundle(_options, output) {
      const chunks: Record<string, ChunkInfo> = {};
      let html = '';
      let cssGzipBytes = 0;
      for (const [name, item] of Object.entries(output)) {
        if (item.type === 'chunk') {
          chunks[name] = {
            code: item.code,
            isEntry: item.isEntry,
            imports: item.imports,
            facadeModuleId: item.facadeModuleId,
          };
        } else if (name === 'index.html') html = String(item.source);
        else if (name.endsWith('.css')) cssGzipBytes += gzipSize(item.source);
      }
      const total = (names: string[]) => names.reduce((sum, name) => sum + gzipSize(chunks[name]!.code), 0);
      for (const [name, screen] of Object.entries(screenCode) as Array<[ScreenName, ScreenCode]>) {
        // The home screen is in the main bundle; every other one is loaded on demand, from its own chunk.
        const names =
          name === 'home' ? homePageChunks(chunks, html) : screenChunks(chunks, html, `src/web/${screen.module}`);
        if (screen.jsBudgetBytes === undefined) continue;
        const gzipBytes = total(names);
        const line = `${pageName(name)} JavaScript: ${kb(gzipBytes)} gzip in ${names.length} file(s) (budget ${kb(screen.jsBudgetBytes)})`;
        if (gzipBytes > screen.jsBudgetBytes) this.error(`${line}: over budget`);
        console.log(line);
        const withAhead = [...new Set([...names, ...idleAheadChunks(chunks)])];
        const aheadBytes = total(withAhead);
        const aheadLine = `${pageName(name)} JavaScript with idle fetch-ahead (signed out): ${kb(aheadBytes)} gzip in ${withAhead.length} file(s) (budget ${kb(IDLE_AHEAD_BUDGET_BYTES)})`;
        if (aheadBytes > IDLE_AHEAD_BUDGET_BYTES) this.error(`${aheadLine}: over budget`);
        console.log(aheadLine);
      }
      console.log(`CSS: ${kb(cssGzipBytes)} gzip`);
    },
  };
}
