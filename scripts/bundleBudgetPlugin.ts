import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** DESIGN.md §6: the JavaScript the home page loads, gzip-compressed. */
export const HOME_PAGE_JS_BUDGET_BYTES = 95_000;

interface ChunkInfo {
  code: string;
  isEntry: boolean;
  imports: string[];
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

/** Prints the home page's JavaScript (and CSS) size and fails the build when the JavaScript is over budget. */
export function bundleBudget(budgetBytes = HOME_PAGE_JS_BUDGET_BYTES): Plugin {
  return {
    name: 'inkwell-bundle-budget',
    apply: 'build',
    // After every generateBundle hook, so index.html (emitted by Vite's HTML plugin) is final.
    writeBundle(_options, output) {
      const chunks: Record<string, ChunkInfo> = {};
      let html = '';
      let cssGzipBytes = 0;
      for (const [name, item] of Object.entries(output)) {
        if (item.type === 'chunk') chunks[name] = { code: item.code, isEntry: item.isEntry, imports: item.imports };
        else if (name === 'index.html') html = String(item.source);
        else if (name.endsWith('.css')) cssGzipBytes += gzipSize(item.source);
      }
      const names = homePageChunks(chunks, html);
      const gzipBytes = names.reduce((sum, name) => sum + gzipSize(chunks[name]!.code), 0);
      const line = `Home page JavaScript: ${kb(gzipBytes)} gzip in ${names.length} file(s) (budget ${kb(budgetBytes)}); CSS ${kb(cssGzipBytes)} gzip`;
      if (gzipBytes > budgetBytes) this.error(`${line}: over budget`);
      console.log(line);
    },
  };
}
