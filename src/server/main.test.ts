import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCacheEnv } from '../../test/support/compileCache.ts';
import { startServerProcess } from '../../test/support/serverProcess.ts';

const dataDirs: string[] = [];

afterEach(() => {
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function freshDataDir(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-main-'));
  dataDirs.push(dataDir);
  return dataDir;
}

describe('the server process', () => {
  it('creates its SQLite database, serves, and exits 0 on SIGTERM', async () => {
    const dataDir = freshDataDir();
    const server = await startServerProcess({ DATA_DIR: dataDir });
    expect(fs.existsSync(path.join(dataDir, 'inkwell.db'))).toBe(true);

    expect(await server.stop()).toBe(0);
    expect(server.output().stdout).toContain('shut down cleanly');
  });

  it('finishes sending a response in flight when SIGTERM arrives', async () => {
    const server = await startServerProcess({ DATA_DIR: freshDataDir() });
    const shell = await (await fetch(`${server.url}/`)).text();
    // The home page's big chunk (the entry script beside it is a few hundred bytes).
    const script = /"(\/assets\/home-[^"]+\.js)"/.exec(shell)![1]!;

    // A slow reader: the response is still being written when the signal arrives.
    const body = await new Promise<{ expected: number; received: number }>((resolve, reject) => {
      const request = http.get(
        { port: server.port, host: '127.0.0.1', path: script, headers: { 'accept-encoding': 'identity' } },
        (response) => {
          response.pause();
          server.child.kill('SIGTERM');
          let received = 0;
          setTimeout(() => {
            response.on('data', (chunk: Buffer) => (received += chunk.length));
            response.on('end', () => resolve({ expected: Number(response.headers['content-length']), received }));
            response.on('error', reject);
            response.resume();
          }, 300);
        },
      );
      request.on('error', reject);
    });
    expect(body.expected).toBeGreaterThan(100_000);
    expect(body.received).toBe(body.expected);
    expect((await server.exited).code).toBe(0);
  });

  it('refuses to start on bad configuration with one line naming the variable', async () => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'main.ts')], {
      env: { PATH: process.env.PATH, ...compileCacheEnv(), DATA_DIR: freshDataDir(), PORT: 'abc' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('Invalid configuration: PORT must be a number (got "abc")');
  });
});
