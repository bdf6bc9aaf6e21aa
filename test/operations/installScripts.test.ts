import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const projectRoot = path.join(import.meta.dirname, '..', '..');

// A first `npm install` finishes without npm's "install scripts not yet covered by
// allowScripts" warning, and an npm that blocks unreviewed scripts installs the same app:
// every installed package with an install script is approved or denied in package.json.
it('every dependency install script is approved or denied in package.json (allowScripts)', async () => {
  const { stdout } = await run('npm', ['install-scripts', 'ls', '--json'], { cwd: projectRoot });
  expect(JSON.parse(stdout)).toEqual({ allowScripts: [] });
});
