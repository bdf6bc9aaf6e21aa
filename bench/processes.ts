import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { ensureServerBuild } from '../scripts/serverBuild.ts';

export const projectRoot = path.resolve(import.meta.dirname, '..');

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface RunningProcess {
  child: ChildProcess;
  origin: string;
  /** Peak resident set size so far, from /proc (VmHWM), in MB. */
  peakRssMb(): number;
  /** Current and peak resident set size (VmRSS, VmHWM), in MB. */
  rssMb(): { rssMb: number; peakMb: number };
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function memoryMb(pid: number | undefined): { rssMb: number; peakMb: number } {
  if (pid === undefined) return { rssMb: NaN, peakMb: NaN };
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1]) / 1024;
  return { rssMb: field('VmRSS'), peakMb: field('VmHWM') };
}

function memoryReaders(child: ChildProcess) {
  return { peakRssMb: () => memoryMb(child.pid).peakMb, rssMb: () => memoryMb(child.pid) };
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/**
 * The environment assignments and node arguments of `npm start` (package.json), so the bench
 * measures what production runs.
 */
function startCommand(): { env: Record<string, string>; args: string[] } {
  const packageJson = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = packageJson.scripts.start.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name, value] = words.shift()!.split('=') as [string, string];
    env[name] = value;
  }
  const [command, ...args] = words;
  if (command !== 'node') throw new Error(`npm start does not run node: ${packageJson.scripts.start}`);
  return { env, args };
}

/**
 * The production server, as `npm start` runs it (the bundle in dist/server, built here when
 * stale), on a loopback port; resolves once /readyz answers.
 */
export async function startAppServer(
  dataDir: string,
  extraEnv: Record<string, string> = {},
  /** Node arguments before the start script's (`--cpu-prof`, for profiling). */
  nodeArgs: string[] = [],
  /** Another checkout whose built server to run (profiling before and after a change); built beforehand. */
  root = projectRoot,
): Promise<RunningProcess> {
  if (root === projectRoot) await ensureServerBuild((line) => console.log(line));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const start = startCommand();
  const child = spawn(process.execPath, [...nodeArgs, ...start.args], {
    cwd: root,
    env: {
      ...process.env,
      ...start.env,
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      INKWELL_SKIP_WEB_BUILD: 'true',
      // The bench signs up and in thousands of times from one address on purpose.
      RATE_LIMIT_SIGNIN_PER_IP: '1000000',
      RATE_LIMIT_SIGNIN_PER_EMAIL: '1000000',
      RATE_LIMIT_SIGNIN_PER_ACCOUNT: '1000000',
      RATE_LIMIT_SIGNIN_ATTEMPTS_PER_IP: '1000000',
      RATE_LIMIT_SIGNUP_PER_IP: '1000000',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the server did not become ready in 30 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, origin, ...memoryReaders(child), stop: stopper(child) };
}

/**
 * Saves the status, headers and body of a GET as the load generator sends it (no
 * Accept-Encoding), for the bare server to answer with.
 */
export async function saveResponse(url: string, file: string): Promise<void> {
  const saved = await new Promise<{ status: number; headers: Record<string, string>; bodyBase64: string }>(
    (resolve, reject) => {
      http
        .get(url, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              headers: Object.fromEntries(
                Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
              ),
              bodyBase64: Buffer.concat(chunks).toString('base64'),
            }),
          );
        })
        .on('error', reject);
    },
  );
  fs.writeFileSync(file, JSON.stringify(saved));
}

/** The bare node:http baseline answering with the status, headers and body saved in `responseFile`. */
export async function startBareServer(responseFile: string): Promise<RunningProcess> {
  const child = spawn(process.execPath, [path.join(projectRoot, 'bench/bareServer.ts'), responseFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', () => reject(new Error('the bare server exited')));
  });
  return { child, origin: `http://127.0.0.1:${port}`, ...memoryReaders(child), stop: stopper(child) };
}
