import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { homeChunkName } from './scripts/homeChunk.ts';
import { bundleBudget } from './scripts/bundleBudgetPlugin.ts';
import { precompress } from './scripts/precompressPlugin.ts';

export default defineConfig({
  root: 'src/web',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), bundleBudget(), precompress()],
  resolve: {
    // markdown-it's prebuilt browser module (same version, its dependencies inside): bundled from
    // its sources instead, its namespace imports made rolldown split out a runtime chunk that the
    // home page then loaded too.
    alias: [{ find: /^markdown-it$/, replacement: 'markdown-it/browser' }],
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    // dist/web/.vite/manifest.json: the server preloads a screen's chunk in the shell (webPlugin.ts).
    manifest: true,
    // Every current browser preloads modules itself; the polyfill cost every visit ~300 bytes (decision 0520).
    modulePreload: { polyfill: false },
    // Everything the home page loads statically in one chunk beside the entry: left to itself,
    // the bundler cuts it into a file per set of lazy screens sharing a module, each costing the
    // home page's budget more bytes (decision 0181).
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: homeChunkName }] } } },
  },
  server: {
    // `npm run dev`: the API and sign-in service come from a running `npm start`.
    proxy: { '/api': 'http://127.0.0.1:3000', '/identity': 'http://127.0.0.1:3000' },
  },
});
