import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAdmin } from '../../test/support/adminRunner.ts';
import { compileCacheEnv } from '../../test/support/compileCache.ts';
import { freePort } from '../../test/support/serverProcess.ts';
import { FIRST_OWNER_HINT } from './identity/firstOwner.ts';

// What a person sees after `npm start`: on a terminal, readable lines, the address to open and
// where the dev outbox writes mail; piped to a collector, JSON lines saying the same.

const mainFile = path.join(import.meta.dirname, 'main.ts');
const ANSI = /\x1b\[[0-9;]*m/g; // eslint-disable-line no-control-regex -- colour codes are what we strip
const stops: Array<() => void> = [];

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** Starts the server, on a pseudo-terminal (`script`) or a pipe, and collects what it prints. */
async function startServer(onTerminal: boolean, existingDataDir?: string) {
  const port = await freePort();
  const dataDir = existingDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-log-lines-'));
  const env = {
    PATH: process.env.PATH,
    ...compileCacheEnv(),
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
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  stops.push(() => {
    kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  await expect.poll(() => output, { timeout: 45_000, interval: 100 }).toContain('in a browser');
  return { port, dataDir, output: () => output.replace(ANSI, ''), stop: kill };
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
    // A fresh site has no owner: the operator is told how to name one (DESIGN §9.6).
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('no owner yet');
  });

  it('names the way to a first owner only while the site has none', async () => {
    const server = await startServer(false);
    const messages = () =>
      server
        .output()
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
    await expect.poll(messages, { timeout: 10_000 }).toContain(FIRST_OWNER_HINT);
    server.stop();
    // The operator makes one with the command the hint names; the next start says nothing of it.
    const made = await runAdmin(['users', 'create', 'boss@example.com', '--role', 'owner'], {
      DATA_DIR: server.dataDir,
    });
    expect(made.code).toBe(0);
    const again = await startServer(false, server.dataDir);
    await expect.poll(() => again.output(), { timeout: 10_000 }).toContain('not sent');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(again.output()).not.toContain('no owner yet');
  });
});
