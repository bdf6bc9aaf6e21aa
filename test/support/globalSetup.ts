import { ensureWebBuild } from '../../src/server/web/webBuild.ts';

/**
 * Route and API tests need no web build (testApp.ts serves a fixture shell). The tests of the
 * real process (main.ts, scale-out, admin, crash) and of the real build's files serve dist/web:
 * built once here, when stale, rather than by several test processes at the same time.
 */
export default async function setup() {
  await ensureWebBuild((message) => console.log(message));
}
