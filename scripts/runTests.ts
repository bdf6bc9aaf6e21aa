import { spawn } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../src/server/web/webBuild.ts';

/**
 * `npm test`: the Vitest suite and the Playwright suite at the same time, each line of output
 * marked with its suite; fails when either fails. Both builds are brought up to date first, once,
 * so neither suite's global setup builds while the other reads dist/. Side by side because
 * either suite alone leaves a core idle much of the time: Vitest waits on databases, mail
 * timeouts and the processes it starts, Playwright on its servers (docs/decisions/0530).
 * `npm run test:unit` and `npm run test:e2e` run one suite, with its own options.
 *
 * `npm run test:reliability` (argument `reliability`): the reliability suite's two halves
 * side by side (vitest.reliability.config.ts says which file is in which).
 */

interface Suite {
  label: string;
  bin: string;
  args: string[];
  env?: Record<string, string>;
}

const reliabilityHalf = (half: '1' | '2'): Suite => ({
  label: `rel${half}`,
  bin: 'vitest',
  args: ['run', '--config', 'vitest.reliability.config.ts'],
  env: { RELIABILITY_HALF: half },
});

const suites: Suite[] =
  process.argv[2] === 'reliability'
    ? [reliabilityHalf('1'), reliabilityHalf('2')]
    : [
        // Three Vitest workers beside Playwright's: much of a Vitest file's time is waiting.
        {
          label: 'unit',
          bin: 'vitest',
          args: ['run'],
          env: { VITEST_MAX_WORKERS: process.env.VITEST_MAX_WORKERS ?? '3' },
        },
        { label: 'e2e ', bin: 'playwright', args: ['test'] },
      ];

/** Runs a command to its end, passing its output through; resolves with its exit code. */
function run(command: string, args: string[], label?: string, env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: projectRoot,
      stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      // The suites keep their colours when a person watches.
      env: { ...process.env, ...(label && process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...env },
    });
    const writers = label ? [child.stdout, child.stderr].map((stream) => prefixLines(label, stream)) : [];
    child.on('error', (error) => {
      console.error(`${label ?? command}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      for (const flush of writers) flush();
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/**
 * Writes a stream's output a whole line at a time, each after its suite's label, so the two
 * suites' lines never mix; returns what writes the last, unfinished line.
 */
function prefixLines(label: string, stream: NodeJS.ReadableStream | null): () => void {
  let pending = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    if (lines.length > 0) process.stdout.write(lines.map((line) => `${label} │ ${line}\n`).join(''));
  });
  return () => {
    if (pending) process.stdout.write(`${label} │ ${pending}\n`);
    pending = '';
  };
}

const started = performance.now();
const buildCode = await run(process.execPath, ['scripts/ensureBuilt.ts']);
if (buildCode !== 0) process.exit(buildCode);

const results = await Promise.all(
  suites.map(async (suite) => {
    const code = await run(
      path.join(projectRoot, 'node_modules', '.bin', suite.bin),
      suite.args,
      suite.label,
      suite.env,
    );
    return { suite, code, seconds: (performance.now() - started) / 1000 };
  }),
);
for (const { suite, code, seconds } of results) {
  console.log(
    `${suite.label.trim()}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}, finished at ${seconds.toFixed(0)} s`,
  );
}
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
