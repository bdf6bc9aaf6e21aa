import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Budget (docs/architecture.md): the JavaScript the home page loads, gzip-compressed. */
export const HOME_PAGE_JS_BUDGET_BYTES = 95_000;
/** Budget (docs/architecture.md): the JavaScript an article page loads (the home page's plus its own screen), gzip-compressed. */
export const ARTICLE_PAGE_JS_BUDGET_BYTES = 100_000;
/** The article screen's module: its lazily loaded chunk is what an article page adds to the home page's. */
const ARTICLE_SCREEN_MODULE = 'src/web/articles/ArticlePage.tsx';

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

/**
 * Prints the JavaScript (and CSS) size of the home page and an article page, and fails the build
 * when either page's JavaScript is over its budget.
 */
export function bundleBudget(
  homeBudgetBytes = HOME_PAGE_JS_BUDGET_BYTES,
  articleBudgetBytes = ARTICLE_PAGE_JS_BUDGET_BYTES,
): Plugin {
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
      const pages = [
        { page: 'Home page', names: homePageChunks(chunks, html), budget: homeBudgetBytes },
        { page: 'Article page', names: screenChunks(chunks, html, ARTICLE_SCREEN_MODULE), budget: articleBudgetBytes },
      ];
      for (const { page, names, budget } of pages) {
        const gzipBytes = total(names);
        const line = `${page} JavaScript: ${kb(gzipBytes)} gzip in ${names.length} file(s) (budget ${kb(budget)})`;
        if (gzipBytes > budget) this.error(`${line}: over budget`);
        console.log(line);
      }
      console.log(`CSS: ${kb(cssGzipBytes)} gzip`);
    },
  };
}
