import fs from 'node:fs';
import path from 'node:path';

/** The folder holding package.json: found upward, as this code runs from src/ and, bundled, from dist/server/. */
export const projectRoot = findProjectRoot(import.meta.dirname);
export const webDistDir = path.join(projectRoot, 'dist/web');
/** The server's renderer of the reading screens (src/web/ssr/renderScreen.tsx), built beside the web app. */
export const screenRendererFile = path.join(projectRoot, 'dist/ssr/renderScreen.js');

// What the web build is made from; a change to any of these makes the build stale.
const buildInputs = ['src/web', 'src/shared', 'public', 'vite.config.ts', 'package-lock.json'];

function findProjectRoot(start: string): string {
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (fs.existsSync(path.join(folder, 'package.json'))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`No package.json above ${start}`);
  }
}

/** The newest modification time of a file, or of any file under a folder; 0 when missing. */
export function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when dist/web is missing or older than its sources. */
export function isWebBuildStale(): boolean {
  const shell = path.join(webDistDir, 'index.html');
  if (!fs.existsSync(shell) || !fs.existsSync(screenRendererFile)) return true;
  if (!fs.existsSync(path.join(projectRoot, 'src/web'))) return false; // deployed without sources
  const built = fs.statSync(shell).mtimeMs;
  return buildInputs.some((input) => newestMtime(path.join(projectRoot, input)) > built);
}

/** Builds the web app with Vite when its build is missing or stale. */
export async function ensureWebBuild(log: (message: string) => void = () => {}): Promise<void> {
  if (!isWebBuildStale()) return;
  log('Building the web app (dist/web is missing or older than its sources)...');
  const { build } = await import('vite');
  // Vite takes NODE_ENV over its mode, and test runners set NODE_ENV=test: the served build must
  // be the production one (React's development build is several times larger and slower).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(projectRoot, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
    await buildScreenRenderer();
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  log('Web app built.');
}

/**
 * Builds the server's renderer of the reading screens: the web app's own components, bundled
 * for Node (packages stay imports from node_modules). No CSS, no budgets: nothing of it is sent
 * to a browser. Vite's configuration is written here rather than read from vite.config.ts, whose
 * plugins (bundle budgets, precompression) are for the browser's build.
 */
export async function buildScreenRenderer(): Promise<void> {
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  await build({
    configFile: false,
    root: path.join(projectRoot, 'src/web'),
    logLevel: 'warn',
    mode: 'production',
    plugins: [react()],
    build: {
      ssr: 'ssr/renderScreen.tsx',
      outDir: path.dirname(screenRendererFile),
      emptyOutDir: true,
      target: 'node24',
      rolldownOptions: { output: { entryFileNames: path.basename(screenRendererFile) } },
    },
  });
}
