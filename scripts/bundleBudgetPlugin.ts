import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** DESIGN.md §6: the JavaScript the home page loads, gzip-compressed. */
export const HOME_PAGE_JS_BUDGET_BYTES = 95_000;

interface ChunkInfo {
  code: string;
  isEntry: boolean;
  imports: string[];
}

/** The entry chunk plus everything it imports statically: what a visit to `/` downloads. */
export function homePageChunks(bundle: Record<string, ChunkInfo>): string[] {
  const entry = Object.entries(bundle).find(([, chunk]) => chunk.isEntry)?.[0];
  if (!entry) return [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !bundle[name]) return;
    seen.add(name);
    bundle[name].imports.forEach(visit);
  };
  visit(entry);
  return [...seen];
}

/** Prints the home page's JavaScript size and fails the build when it is over budget. */
export function bundleBudget(budgetBytes = HOME_PAGE_JS_BUDGET_BYTES): Plugin {
  return {
    name: 'inkwell-bundle-budget',
    apply: 'build',
    generateBundle(_options, output) {
      const chunks: Record<string, ChunkInfo> = {};
      for (const [name, item] of Object.entries(output)) {
        if (item.type === 'chunk') chunks[name] = { code: item.code, isEntry: item.isEntry, imports: item.imports };
      }
      const names = homePageChunks(chunks);
      const gzipBytes = names.reduce((sum, name) => sum + zlib.gzipSync(chunks[name]!.code, { level: 9 }).length, 0);
      const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
      const line = `Home page JavaScript: ${kb(gzipBytes)} gzip in ${names.length} file(s) (budget ${kb(budgetBytes)})`;
      if (gzipBytes > budgetBytes) this.error(`${line}: over budget`);
      console.log(line);
    },
  };
}
