import { ensureWebBuild } from '../src/server/web/webBuild.ts';
import { ensureServerBuild } from './serverBuild.ts';

// `npm start` runs this first (prestart): the web app and the server bundle, each only when
// missing or older than its sources. A process of its own, so the server starts without the
// build tools in memory.
await ensureWebBuild((message) => console.log(message));
await ensureServerBuild((message) => console.log(message));
