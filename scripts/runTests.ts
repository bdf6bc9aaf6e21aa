import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../src/server/web/webBuild.ts';
import { findChromiumHere } from '../test/support/findChromium.ts';
import { runSuites, type Suite } from './suiteRunner.ts';

/**
 * `npm test`: the Vitest suite and the Playwright suite at the same time (scripts/suiteRunner.ts),
 * failing when either fails. Both builds are brought up to date first, once, so neither suite's
 * global setup builds while the other reads dist/. Side by side because either suite alone
 * leaves a core idle part of the time: Vitest waits on databases, mail timeouts and the
 * processes it starts (docs/decisions/0530). `npm run test:unit` and `npm run test:e2e` run
 * one suite, with its own options.
 *
 * `npm run test:reliability` (argument `reliability`): the reliability suite's two halves
 * side by side (vitest.reliability.config.ts says which file is in which).
 */

const bin = (name: string) => path.join(projectRoot, 'node_modules', '.bin', name);

const reliabilityHalf = (half: '1' | '2'): Suite => ({
  label: `rel${half}`,
  command: bin('vitest'),
  args: ['run', '--config', 'vitest.reliability.config.ts'],
  env: { RELIABILITY_HALF: half },
});

const reliability = process.argv[2] === 'reliability';
const suites: Suite[] = reliability
  ? [reliabilityHalf('1'), reliabilityHalf('2')]
  : [
      // Three Vitest workers beside two Playwright workers (each with its server and browser):
      // side by side the suites are bound by the two cores, and four beside three made the same
      // tests cost 620 core-seconds instead of 525, the processes crowding each other (312 s
      // against 280 s; decision 0890). Alone each suite keeps its own default.
      {
        label: 'unit',
        command: bin('vitest'),
        args: ['run'],
        env: { VITEST_MAX_WORKERS: process.env.VITEST_MAX_WORKERS ?? '3' },
      },
      {
        label: 'e2e ',
        command: bin('playwright'),
        args: ['test'],
        env: { E2E_WORKERS: process.env.E2E_WORKERS ?? '2' },
      },
    ];

// Without a browser every browser test would fail alike: say so at once, before the build.
const chromium = reliability ? undefined : findChromiumHere();
if (chromium && 'error' in chromium) {
  console.error(chromium.error);
  process.exit(1);
}

const started = performance.now();
const build = spawnSync(process.execPath, ['scripts/ensureBuilt.ts'], { cwd: projectRoot, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const results = await runSuites(suites, {
  cwd: projectRoot,
  write: (text) => process.stdout.write(text),
  color: process.stdout.isTTY,
});
for (const { label, code, seconds } of results) {
  console.log(`${label}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}, finished at ${seconds.toFixed(0)} s`);
}
// The whole time, build included: for `npm test`, the figure of issue 22's 4-minute budget.
const command = reliability ? 'npm run test:reliability' : 'npm test';
console.log(`${command}: ${((performance.now() - started) / 1000).toFixed(0)} s in all, build included`);
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
