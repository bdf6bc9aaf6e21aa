import { defineConfig } from 'vitest/config';

/**
 * The reliability suite: crash consistency, load, graceful shutdown, hostile input, token
 * refusals, the authorisation matrix and enumeration. Files run one at a time, because load
 * and timing measurements must not compete with each other for the CPU.
 */
export default defineConfig({
  test: {
    include: ['test/reliability/*.reliability.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
