import { ensureWebBuild } from '../../src/server/web/webBuild.ts';

/** API tests serve the real shell, so the web app must be built once before they run. */
export default async function setup() {
  await ensureWebBuild((message) => console.log(message));
}
