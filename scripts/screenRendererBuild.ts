import { buildScreenRenderer } from '../src/server/web/webBuild.ts';

// `npm run build`: the server's renderer of the reading screens, after the web app (vite build).
await buildScreenRenderer();
