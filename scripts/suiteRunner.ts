import { spawn } from 'node:child_process';

/** One test suite run as its own process. */
export interface Suite {
  /** Marks each of its output lines. */
  label: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface SuiteResult {
  label: string;
  /** The process's exit code; 1 when it could not start or was ended by a signal. */
  code: number;
  seconds: number;
}

export interface RunOptions {
  cwd: string;
  /** Where the marked lines go (process.stdout). */
  write: (text: string) => void;
  /** The suites keep their colours when a person watches. */
  color?: boolean;
}

/**
 * Runs the suites at the same time, each output line of each written whole after its suite's
 * label, so the suites' lines never mix; resolves when all have ended, each with its exit code.
 */
export async function runSuites(suites: Suite[], options: RunOptions): Promise<SuiteResult[]> {
  const started = performance.now();
  return Promise.all(
    suites.map(async (suite) => ({
      label: suite.label.trim(),
      code: await runSuite(suite, options),
      seconds: (performance.now() - started) / 1000,
    })),
  );
}

function runSuite(suite: Suite, options: RunOptions): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(suite.command, suite.args, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...(options.color ? { FORCE_COLOR: '1' } : {}), ...suite.env },
    });
    const flushes = [child.stdout, child.stderr].map((stream) => writeLines(stream, suite.label, options.write));
    child.on('error', (error) => {
      options.write(`${suite.label} │ ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => {
      for (const flush of flushes) flush();
      resolve(code ?? 1);
    });
  });
}

/** Passes a stream on a whole line at a time, after `label`; returns what writes an unfinished last line. */
function writeLines(stream: NodeJS.ReadableStream, label: string, write: (text: string) => void): () => void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    if (lines.length > 0) write(lines.map((line) => `${label} │ ${line}\n`).join(''));
  });
  return () => {
    if (pending) write(`${label} │ ${pending}\n`);
    pending = '';
  };
}
