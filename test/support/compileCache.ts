import path from 'node:path';
import { projectRoot } from '../../src/server/web/webBuild.ts';

/**
 * Node's on-disk compile cache for the processes the tests start (servers, admin commands,
 * test workers): such a process compiles the same server and packages every time, and with the
 * cache a server started by a test is ready on 1.5 core-seconds instead of 2.4 (decision 0896).
 * The folder lives in node_modules, so a fresh clone starts empty and `npm ci` clears it.
 */
const COMPILE_CACHE_DIR = path.join(projectRoot, 'node_modules', '.cache', 'node-compile-cache');

/** Called by npm test's global setups (compileCacheSetup.ts, e2e/support/workerServers.ts): every process started after it inherits the cache. */
export function useCompileCache(): void {
  process.env.NODE_COMPILE_CACHE ??= COMPILE_CACHE_DIR;
}

/**
 * For a process started with an environment of its own (as an operator's would be): the cache,
 * when the suite uses one, is the only variable passed on from the test's.
 */
export function compileCacheEnv(): Record<string, string> {
  const dir = process.env.NODE_COMPILE_CACHE;
  return dir ? { NODE_COMPILE_CACHE: dir } : {};
}
