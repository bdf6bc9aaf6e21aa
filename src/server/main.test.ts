import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const mainFile = path.join(import.meta.dirname, 'main.ts');
const dataDirs: string[] = [];

afterEach(() => {
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function startProcess(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-main-'));
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, [mainFile], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, INKWELL_SKIP_WEB_BUILD: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }), dataDir };
}

async function waitUntilUp(url: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} never answered`);
}

describe('the server process', () => {
  it('creates its SQLite database, serves, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const server = startProcess({ PORT: String(port) });
    await waitUntilUp(`http://127.0.0.1:${port}/readyz`);
    expect(fs.existsSync(path.join(server.dataDir, 'inkwell.db'))).toBe(true);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output().stdout).toContain('shut down cleanly');
  });

  it('finishes sending a response in flight when SIGTERM arrives', async () => {
    const port = await freePort();
    const server = startProcess({ PORT: String(port) });
    await waitUntilUp(`http://127.0.0.1:${port}/healthz`);
    const shell = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(shell)![1]!;

    // A slow reader: the response is still being written when the signal arrives.
    const body = await new Promise<{ expected: number; received: number }>((resolve, reject) => {
      const request = http.get(
        { port, host: '127.0.0.1', path: script, headers: { 'accept-encoding': 'identity' } },
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
    expect(await server.exited).toBe(0);
  });

  it('refuses to start on bad configuration with one line naming the variable', async () => {
    const server = startProcess({ PORT: 'abc' });
    expect(await server.exited).toBe(2);
    expect(server.output().stderr.trim()).toBe('Invalid configuration: PORT must be a number (got "abc")');
  });
});
