import { defineConfig } from 'vitest/config';

/**
 * The reliability suite: crash consistency, load, graceful shutdown, hostile input, token
 * refusals and enumeration (the authorisation matrix is part of `npm test`, test/authorisation/).
 * Within a half, files run one at a time: two load generators never compete for the CPU.
 *
 * `npm run test:reliability` runs the two halves side by side (scripts/runTests.ts): the first
 * is the files that put a server under load for a fixed time, the second the rest, most of
 * whose time is waiting (trickling clients, deadlines, worker processes). Their bounds were
 * already set for a shared 2-core machine (medians, generous deadlines; docs/decisions/0530).
 * RELIABILITY_HALF picks one half; without it, every file runs, one at a time.
 */
const cpuLoadFiles = ['load', 'crashConsistency', 'enumeration', 'anonymousMemory'].map(
  (name) => `test/reliability/${name}.reliability.test.ts`,
);
const half = process.env.RELIABILITY_HALF;

export default defineConfig({
  test: {
    include: half === '1' ? cpuLoadFiles : ['test/reliability/*.reliability.test.ts'],
    exclude: half === '2' ? cpuLoadFiles : [],
    globalSetup: ['test/support/globalSetup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
