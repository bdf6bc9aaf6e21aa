import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const destinationModule = path.join(import.meta.dirname, 'batchedLogDestination.ts');

/** Runs `body` in a fresh Node process with `log` bound to a destination on its stdout; returns the stdout. */
function runWithDestination(body: string): string {
  return spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { batchedLogDestination } from ${JSON.stringify(destinationModule)};
       const log = batchedLogDestination();
       ${body}`,
    ],
    { encoding: 'utf8' },
  ).stdout;
}

// Operators read these lines (access log, errors): none may be lost or reordered by the batching.
describe('the batched log destination', () => {
  it('writes every line, in order, when the process exits right after logging', () => {
    const output = runWithDestination(`
      for (let i = 0; i < 1000; i++) log.write('{"line":' + i + '}\\n');
      process.exit(0);`);
    const lines = output.trimEnd().split('\n');
    expect(lines).toHaveLength(1000);
    expect(lines.map((line) => JSON.parse(line).line)).toEqual([...Array(1000).keys()]);
  });

  it('writes a lone line within a quarter second, without waiting for a full batch', () => {
    const output = runWithDestination(`
      log.write('{"msg":"alone"}\\n');
      // Killed, so no exit handler runs: only the flush timer can have written the line.
      setTimeout(() => process.kill(process.pid, 'SIGKILL'), 600);`);
    expect(output).toBe('{"msg":"alone"}\n');
  });
});
