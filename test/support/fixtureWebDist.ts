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
  // One folder per shell content, shared by every test process: written once, then only read.
  const dir = path.join(
    os.tmpdir(),
    `inkwell-fixture-web-${createHash('sha256').update(html).digest('hex').slice(0, 16)}`,
  );
  if (fs.existsSync(path.join(dir, 'index.html'))) return dir;
  const staging = fs.mkdtempSync(`${dir}-staging-`);
  fs.mkdirSync(path.join(staging, 'assets'));
  fs.mkdirSync(path.join(staging, '.vite'));
  fs.writeFileSync(path.join(staging, FIXTURE_ENTRY), 'export {};\n');
  fs.writeFileSync(path.join(staging, FIXTURE_ARTICLE_CHUNK), 'export {};\n');
  fs.writeFileSync(
    path.join(staging, '.vite/manifest.json'),
    JSON.stringify({
      'index.html': { file: FIXTURE_ENTRY.slice(1), isEntry: true },
      'articles/ArticlePage.tsx': { file: FIXTURE_ARTICLE_CHUNK.slice(1), imports: ['index.html'] },
    }),
  );
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
