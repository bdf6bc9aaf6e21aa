import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/server/web/webBuild.ts';

/**
 * A stand-in for dist/web, for tests that need the HTML shell but not the real build: the
 * source index.html (the boot frame, title and description the server rewrites) with its entry
 * script swapped for a tiny asset, and a build manifest naming the article page's chunk, as
 * Vite's would. Made in milliseconds, where a Vite build takes a minute on 2 cores. Tests
 * about the build itself (its assets, their compressed copies) ask for `webDist: 'built'`.
 */
export const FIXTURE_ENTRY = '/assets/index-fixture.js';
export const FIXTURE_ARTICLE_CHUNK = '/assets/ArticlePage-fixture.js';

const webSource = path.join(projectRoot, 'src/web');

/** The web app's modules (not tests), as paths relative to src/web, the manifest's keys. */
function webModules(): string[] {
  return (fs.readdirSync(webSource, { recursive: true }) as string[])
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

const fixtureChunk = (module: string) => `/assets/${module.replace(/\.tsx?$/, '').replaceAll('/', '-')}-fixture.js`;

export function fixtureWebDist(): string {
  const source = fs.readFileSync(path.join(projectRoot, 'src/web/index.html'), 'utf8');
  const shell = source.replace(
    /<script type="module" src="\.\/main\.tsx"><\/script>/,
    '', // Vite moves the entry to the head; so does the fixture
  );
  if (shell === source) throw new Error('src/web/index.html no longer loads ./main.tsx: update fixtureWebDist.ts');
  const html = shell.replace(
    '</head>',
    `  <script type="module" crossorigin src="${FIXTURE_ENTRY}"></script>\n  </head>`,
  );
  // One folder per shell and module list, shared by every test process: written once, then only read.
  const digest = createHash('sha256').update(html).update(webModules().join('\n')).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), `inkwell-fixture-web-${digest}`);
  if (fs.existsSync(path.join(dir, 'index.html'))) return dir;
  const staging = fs.mkdtempSync(`${dir}-staging-`);
  fs.mkdirSync(path.join(staging, 'assets'));
  fs.mkdirSync(path.join(staging, '.vite'));
  // Every module of the web app gets a chunk, as if each were split out: whichever screen's
  // module the server looks up in the manifest is there.
  const manifest: Record<string, { file: string; isEntry?: boolean; imports?: string[] }> = {
    'index.html': { file: FIXTURE_ENTRY.slice(1), isEntry: true },
  };
  for (const module of webModules()) {
    const file = module === 'articles/ArticlePage.tsx' ? FIXTURE_ARTICLE_CHUNK : fixtureChunk(module);
    manifest[module] = { file: file.slice(1), imports: ['index.html'] };
  }
  for (const { file } of Object.values(manifest)) fs.writeFileSync(path.join(staging, file), 'export {};\n');
  fs.writeFileSync(path.join(staging, '.vite/manifest.json'), JSON.stringify(manifest));
  fs.copyFileSync(path.join(projectRoot, 'public/favicon.svg'), path.join(staging, 'favicon.svg'));
  // index.html last: its presence says the folder is complete.
  fs.writeFileSync(path.join(staging, 'index.html'), html);
  try {
    fs.renameSync(staging, dir);
  } catch {
    // Another test process made it first: theirs is the same.
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}
