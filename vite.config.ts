import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleBudget } from './scripts/bundleBudgetPlugin.ts';
import { precompress } from './scripts/precompressPlugin.ts';

export default defineConfig({
  root: 'src/web',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), bundleBudget(), precompress()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    // dist/web/.vite/manifest.json: the server preloads a screen's chunk in the shell (webPlugin.ts).
    manifest: true,
  },
  server: {
    // `npm run dev`: the API and sign-in service come from a running `npm start`.
    proxy: { '/api': 'http://127.0.0.1:3000', '/identity': 'http://127.0.0.1:3000' },
  },
});
