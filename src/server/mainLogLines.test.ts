import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../test/support/serverProcess.ts';

// What a person sees after `npm start`: on a terminal, readable lines, the address to open and
// where the dev outbox writes mail; piped to a collector, JSON lines saying the same.

const mainFile = path.join(import.meta.dirname, 'main.ts');
const ANSI = /\x1b\[[0-9;]*m/g; // eslint-disable-line no-control-regex -- colour codes are what we strip
const stops: Array<() => void> = [];

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** Starts the server, on a pseudo-terminal (`script`) or a pipe, and collects what it prints. */
async function startServer(onTerminal: boolean) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-log-lines-'));
  const env = {
    PATH: process.env.PATH,
    SHELL: '/bin/sh',
    INKWELL_SKIP_WEB_BUILD: 'true',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
  };
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(mainFile)}`;
  const child = onTerminal
    ? spawn('script', ['-qfec', command, '/dev/null'], { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, [mainFile], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  stops.push(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  await expect.poll(() => output, { timeout: 45_000, interval: 100 }).toContain('in a browser');
  return { port, dataDir, output: () => output.replace(ANSI, '') };
}

describe('the lines npm start prints', () => {
  it('on a terminal: readable lines with the address to open, the outbox, and each request', async () => {
    const server = await startServer(true);
    expect((await fetch(`http://127.0.0.1:${server.port}/api/articles?limit=1`)).status).toBe(200);
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('GET /api/articles?limit=1 200 in');

    const lines = server.output().trim().split(/\r?\n/);
    for (const line of lines) expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] (INFO|WARN): /);
    expect(lines).toContainEqual(
      expect.stringContaining(`INFO: Inkwell is running: open http://localhost:${server.port} in a browser`),
    );
    expect(lines).toContainEqual(
      expect.stringContaining(
        `INFO: SMTP_URL is not set: emails are written to ${path.join(server.dataDir, 'outbox')} as .eml files, not sent`,
      ),
    );
  });

  it('piped: one JSON object a line, saying the same', async () => {
    const server = await startServer(false);
    // Lines are written in batches (batchedLogDestination.ts): wait for the two start-up lines.
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('not sent');
    const messages = server
      .output()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContain(`Inkwell is running: open http://localhost:${server.port} in a browser`);
    expect(messages).toContain(
      `SMTP_URL is not set: emails are written to ${path.join(server.dataDir, 'outbox')} as .eml files, not sent`,
    );
  });
});
