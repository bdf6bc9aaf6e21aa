import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { useCompileCache } from '../../test/support/compileCache.ts';
import { freePort } from '../../test/support/serverProcess.ts';
import { startSmtpSink, type SmtpSink } from '../../test/support/smtpSink.ts';
import { startTestOidcProvider } from '../../test/support/testOidcProvider.ts';
import { startPictureServer } from './pictures.ts';

/**
 * Playwright's global setup: one server per parallel worker, each with its own data folder
 * (so its own SQLite database and uploads) and its own SMTP sink, so specs running at the same
 * time never see each other's articles, accounts or mail. Each server runs as production
 * does, `npm start` (the bundle; built once here first). Ports are free ones found now, so two
 * checkouts running their tests at once do not collide.
 *
 * A worker finds its server through playwright.config.ts, by its TEST_PARALLEL_INDEX (a
 * worker restarted after a failure keeps the index, and so the server).
 */

const projectRoot = path.join(import.meta.dirname, '..', '..');
const START_TIMEOUT_MS = 120_000;

/** The variables through which worker `index` finds its server and mailbox. */
export const serverUrlVariable = (index: number | string) => `E2E_SERVER_URL_${index}`;
export const mailboxUrlVariable = (index: number | string) => `E2E_MAILBOX_URL_${index}`;
export const oidcIssuerVariable = (index: number | string) => `E2E_OIDC_ISSUER_${index}`;
export const dataDirVariable = (index: number | string) => `E2E_DATA_DIR_${index}`;

interface WorkerServer {
  stop(): Promise<void>;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: projectRoot, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}`)),
    );
  });
}

/** The sink's received mail as JSON at GET /messages, as e2e/support/mailbox.ts reads it. */
async function serveMailbox(sink: SmtpSink): Promise<{ url: string; close(): void }> {
  const server = http.createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/messages') {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(JSON.stringify(sink.messages));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/messages`,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server for the browser tests exited:\n${output()}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server for the browser tests never became ready:\n${output()}`);
}

async function startWorkerServer(index: number): Promise<WorkerServer> {
  const sink = await startSmtpSink({ port: 0 });
  const mailbox = await serveMailbox(sink);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `inkwell-e2e-${index}-`));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // A real OpenID provider on loopback for this worker's server: "Continue with Test ID" (oidc.test).
  const provider = await startTestOidcProvider({ redirectUris: [`${url}/identity/oauth/oidc.test/callback`] });
  // What production runs: npm start (its prestart finds the build fresh), the bundled server.
  const child = spawn('npm', ['start'], {
    cwd: projectRoot,
    detached: true, // its own process group: npm and the server stop together
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      SMTP_URL: sink.url,
      LOG_LEVEL: 'warn',
      // Every browser test signs up and signs in from 127.0.0.1: the per-address limits (100
      // sign-ups an hour by default) are the whole suite's, and one worker's server reached the
      // sign-up limit 130 tests in. Limits per email and per account stay as they are.
      RATE_LIMIT_SIGNUP_PER_IP: '100000',
      RATE_LIMIT_SIGNIN_PER_IP: '100000',
      RATE_LIMIT_SIGNIN_ATTEMPTS_PER_IP: '100000',
      // Short, so the reauthentication test need not wait out the real 5 minutes.
      RECENT_SIGN_IN_SECONDS: '30',
      OIDC_TEST_ISSUER: provider.issuer,
      OIDC_TEST_CLIENT_ID: 'inkwell-test-client',
      OIDC_TEST_CLIENT_SECRET: 'inkwell-test-client-secret-0123456789',
      OIDC_TEST_NAME: 'Test ID',
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    mailbox.close();
    await sink.close();
    await provider.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(url, child, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  process.env[serverUrlVariable(index)] = url;
  process.env[mailboxUrlVariable(index)] = mailbox.url;
  process.env[oidcIssuerVariable(index)] = provider.issuer;
  process.env[dataDirVariable(index)] = dataDir;
  return { stop };
}

export default async function startWorkerServers(config: FullConfig) {
  useCompileCache();
  // Once, before the servers start: their prestarts then find the build fresh and do nothing.
  await run(process.execPath, ['scripts/ensureBuilt.ts']);
  // One picture server for every worker: the articles' pictures (e2e/support/pictures.ts).
  const stopPictures = await startPictureServer();
  const started = await Promise.allSettled(
    Array.from({ length: config.workers }, (_, index) => startWorkerServer(index)),
  );
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await stopPictures();
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  return stopAll;
}
