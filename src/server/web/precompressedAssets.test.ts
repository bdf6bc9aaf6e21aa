import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { rawGet } from '../../../test/support/rawGet.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { webDistDir } from './webBuild.ts';

// The build writes .br and .gz beside each asset (scripts/precompressPlugin.ts); the server
// must send those files, picked by Accept-Encoding, and never compress per request.
describe('precompressed assets', () => {
  let server: TestApp;
  let assets: string[];
  beforeAll(async () => {
    // About the real build's files: the fixture shell has no compressed copies.
    server = await startTestApp(contractDatabases()[0]!, {}, { webDist: 'built' });
    const shell = (await rawGet(`${server.url}/`, {})).body.toString();
    assets = [...shell.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
  });
  afterAll(() => server.close());

  it('finds the entry script and the stylesheet in the shell', () => {
    expect(assets.some((asset) => asset.endsWith('.js'))).toBe(true);
    expect(assets.some((asset) => asset.endsWith('.css'))).toBe(true);
  });

  it.each([
    ['br, gzip', 'br', '.br'],
    ['gzip, deflate, br', 'br', '.br'],
    ['gzip', 'gzip', '.gz'],
    ['identity', undefined, ''],
    ['', undefined, ''],
  ])('answers Accept-Encoding "%s" with %s, the file written at build', async (accept, encoding, suffix) => {
    for (const asset of assets) {
      const response = await rawGet(`${server.url}${asset}`, accept ? { 'accept-encoding': accept } : {});
      expect(response.status, asset).toBe(200);
      expect(response.headers['content-encoding'], asset).toBe(encoding);
      expect(response.headers.vary ?? '', asset).toMatch(/accept-encoding/i);
      const original = fs.readFileSync(path.join(webDistDir, asset));
      expect(response.body.equals(fs.readFileSync(path.join(webDistDir, asset + suffix))), asset).toBe(true);
      const decoded =
        encoding === 'br'
          ? zlib.brotliDecompressSync(response.body)
          : encoding === 'gzip'
            ? zlib.gunzipSync(response.body)
            : response.body;
      expect(decoded.equals(original), asset).toBe(true);
    }
  });
});
