import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '..');

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

/** `node src/server/main.ts` on a loopback port with the built web app; resolves once /readyz answers. */
export async function startAppServer(dataDir: string, extraEnv: Record<string, string> = {}): Promise<RunningProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(projectRoot, 'src/server/main.ts')], {
    cwd: projectRoot,
    env: {
      ...process.env,
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      INKWELL_SKIP_WEB_BUILD: 'true',
      // The bench signs up and in thousands of times from one address on purpose.
      RATE_LIMIT_SIGNIN_PER_IP: '1000000',
      RATE_LIMIT_SIGNIN_PER_EMAIL: '1000000',
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

/** The bare node:http baseline serving `bodyFile`'s bytes. */
export async function startBareServer(bodyFile: string): Promise<RunningProcess> {
  const child = spawn(process.execPath, [path.join(projectRoot, 'bench/bareServer.ts'), bodyFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', () => reject(new Error('the bare server exited')));
  });
  return { child, origin: `http://127.0.0.1:${port}`, ...memoryReaders(child), stop: stopper(child) };
}
