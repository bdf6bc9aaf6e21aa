import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { Database as DatabaseConfig } from '../config.ts';

/** Test helpers: the real server and the real admin command as child processes. */
const serverDir = path.join(import.meta.dirname, '..');
const mainFile = path.join(serverDir, 'main.ts');
const adminFile = path.join(serverDir, 'admin', 'adminCommand.ts');

export function databaseUrl(config: DatabaseConfig): string {
  return config.kind === 'sqlite' ? `sqlite:${config.file}` : config.url;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface ServerProcess {
  url: string;
  port: number;
  output(): string;
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

// Generous: CI machines are shared, and a start under load can take several seconds.
const START_TIMEOUT_MS = 45_000;

/** Starts `node src/server/main.ts` and resolves once /readyz answers 200. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [mainFile], {
    env: {
      PATH: process.env.PATH,
      INKWELL_SKIP_WEB_BUILD: 'true',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode} before it was ready:\n${output}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server on ${url} was not ready within ${START_TIMEOUT_MS} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    port,
    output: () => output,
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node src/server/admin/adminCommand.ts ARGS` to completion. */
export function runAdmin(args: string[], env: Record<string, string>): Promise<AdminRun> {
  const child = spawn(process.execPath, [adminFile, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
