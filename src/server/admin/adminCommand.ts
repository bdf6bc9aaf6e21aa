import module from 'node:module';
import { runAdminCommand } from './adminRun.ts';

// The operator's door to the admin commands (`npm run admin`, docs/operations.md); what they do
// is adminRun.ts. A short-lived command loads most of the server each run; Node's on-disk
// compile cache (in the OS temp directory) roughly halves that on later runs.
module.enableCompileCache?.();

process.exitCode = await runAdminCommand(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
