import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { compileCacheEnv } from './compileCache.ts';

const mainFile = path.join(import.meta.dirname, '..', '..', 'src', 'server', 'main.ts');

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
  child: ChildProcess;
  url: string;
  port: number;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the process wrote so far. */
  output(): { stdout: string; stderr: string };
  /** SIGTERM (unless it already exited), then the exit code. */
  stop(): Promise<number | null>;
}

// Generous: CI machines are shared, and a start under load can take several seconds.
const START_TIMEOUT_MS = 45_000;

/**
 * Runs the real server entry point (`node src/server/main.ts`) as its own process, the way an
 * operator does, and waits until it answers /readyz.
 */
export async function startServerProcess(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const listenPort = port ?? (await freePort());
  const child = spawn(process.execPath, [mainFile], {
    env: {
      PATH: process.env.PATH,
      ...compileCacheEnv(),
      INKWELL_SKIP_WEB_BUILD: 'true',
      HOST: '127.0.0.1',
      PORT: String(listenPort),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${listenPort}`;
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!gone && Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) {
        const stop = async () => {
          if (!gone) child.kill('SIGTERM');
          return (await exited).code;
        };
        return { child, url, port: listenPort, exited, output: () => ({ stdout, stderr }), stop };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server process never became ready.\nstdout: ${stdout}\nstderr: ${stderr}`);
}

/** A small seeded PRNG (mulberry32), so a failing random run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed for this run: RELIABILITY_SEED replays a run, otherwise a fresh one. */
export function runSeed(): number {
  const given = process.env.RELIABILITY_SEED;
  return given ? Number(given) : Math.floor(Math.random() * 2 ** 31);
}
