import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|xml|webmanifest)$/;

/** Writes .br and .gz beside each text asset so the server never compresses them per request. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'inkwell-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' });
      await Promise.all(
        files
          .filter((file) => COMPRESSIBLE.test(file) && !file.endsWith('index.html'))
          .map(async (file) => {
            const full = path.join(outDir, file);
            const content = fs.readFileSync(full);
            const [br, gz] = await Promise.all([
              brotli(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
              gzip(content, { level: 9 }),
            ]);
            // Small files too (the bundler's runtime chunk, which the home page loads, is 0.6 kB),
            // but only where the copy is smaller than the file.
            if (br.length < content.length) fs.writeFileSync(`${full}.br`, br);
            if (gz.length < content.length) fs.writeFileSync(`${full}.gz`, gz);
          }),
      );
    },
  };
}
