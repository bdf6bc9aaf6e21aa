import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Database as DatabaseConfig } from '../../src/server/config.ts';

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

/** Runs `node src/server/admin/adminCommand.ts ARGS` to completion, as an operator would. */
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
