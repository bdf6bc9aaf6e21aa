import fs from 'node:fs';
import path from 'node:path';
import { build } from 'rolldown';
import { newestMtime, projectRoot } from '../src/server/web/webBuild.ts';

/** What production runs: `node dist/server/main.js`. */
export const serverBundle = path.join(projectRoot, 'dist/server/main.js');

// What the server bundle is made from; a change to any of these makes it stale.
const buildInputs = ['src/server', 'src/shared', 'package-lock.json', 'scripts/serverBuild.ts'];

/** True when dist/server/main.js is missing or older than its sources. */
export function isServerBuildStale(): boolean {
  if (!fs.existsSync(serverBundle)) return true;
  const built = fs.statSync(serverBundle).mtimeMs;
  return buildInputs.some((input) => newestMtime(path.join(projectRoot, input)) > built);
}

/**
 * Bundles the server's own code (src/server, src/shared) into one plain JavaScript file;
 * packages stay imports from node_modules. Production runs it instead of the TypeScript
 * sources because Node's type stripping keeps its compiler in the process: 36 MB of the
 * 143 MB an idle server held with 100,000 articles (docs/decisions/0007).
 */
export async function buildServer(): Promise<void> {
  await build({
    input: {
      main: path.join(projectRoot, 'src/server/main.ts'),
      // The process each upload is decoded in (images/imageWorkers.ts forks it from beside main.js).
      imageWorker: path.join(projectRoot, 'src/server/images/imageWorker.ts'),
    },
    platform: 'node',
    // Bare specifiers (packages, node: builtins) are left to Node; only relative imports are bundled.
    external: [/^[^./]/],
    logLevel: 'warn',
    output: {
      dir: path.dirname(serverBundle),
      format: 'esm',
      entryFileNames: '[name].js',
      // Code both entries use; fixed names, so a rebuild replaces the last one's.
      chunkFileNames: 'shared-[name].js',
    },
  });
}

export async function ensureServerBuild(log: (message: string) => void = () => {}): Promise<void> {
  if (!isServerBuildStale()) return;
  log('Building the server (dist/server is missing or older than its sources)...');
  await buildServer();
  log('Server built.');
}

if (import.meta.main) await buildServer();
