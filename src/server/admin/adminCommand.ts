import { spawnSync } from 'node:child_process';
import module from 'node:module';
import { importHeapFlags } from '../moving/importing/importHeap.ts';
import { runAdminCommand } from './adminRun.ts';

// The operator's door to the admin commands (`npm run admin`, docs/operations.md); what they do
// is adminRun.ts. A short-lived command loads most of the server each run; Node's on-disk
// compile cache (in the OS temp directory) roughly halves that on later runs.
module.enableCompileCache?.();

// An import runs under a heap limit, which V8 takes only at start: the door starts itself again
// with it (before loading anything of the server, so it costs a bare Node start).
const heapFlags = importHeapFlags(process.argv.slice(2), process.execArgv, process.env.NODE_OPTIONS);
if (heapFlags) {
  const again = spawnSync(process.execPath, [...heapFlags, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(again.status ?? 1);
}

process.exitCode = await runAdminCommand(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
