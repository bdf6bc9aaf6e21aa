import { spawn } from 'node:child_process';
import path from 'node:path';
import { runAdminCommand } from '../../src/server/admin/adminRun.ts';
import type { Database as DatabaseConfig } from '../../src/server/config.ts';
import { compileCacheEnv } from './compileCache.ts';

const adminFile = path.join(import.meta.dirname, '..', '..', 'src', 'server', 'admin', 'adminCommand.ts');

/** The DATABASE_URL an operator would set for this database. */
export function databaseUrl(config: DatabaseConfig): string {
  return config.kind === 'sqlite' ? `sqlite:${config.file}` : config.url;
}

export interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node src/server/admin/adminCommand.ts ARGS` to completion, as an operator would: for
 * tests of the command line door itself (exit status, output of a real process).
 */
export function runAdminProcess(args: string[], env: Record<string, string>): Promise<AdminRun> {
  const child = spawn(process.execPath, [adminFile, ...args], {
    env: { PATH: process.env.PATH, ...compileCacheEnv(), ...env },
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

/**
 * Runs the same command in this process: the arguments, environment, output and exit status
 * the door passes through, without starting Node and loading the server again for each command
 * (most of the admin tests' time on a 2-core machine, decision 0550).
 */
export async function runAdmin(args: string[], env: Record<string, string>): Promise<AdminRun> {
  let stdout = '';
  let stderr = '';
  const code = await runAdminCommand(args, {
    env: { PATH: process.env.PATH, ...env },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}
