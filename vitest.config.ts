import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    // The slow reliability suite (crash, load, shutdown, fuzzing) runs with `npm run test:reliability`.
    exclude: [...configDefaults.exclude, '**/*.reliability.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    // Vitest's default is one worker per core less one: a single worker on 2 cores. Much of a
    // test's time is waiting (PostgreSQL, argon2 on libuv's threads, child processes, mail
    // timeouts), so more workers than cores finish sooner (measured: docs/architecture.md).
    maxWorkers: 3,
    // API tests hash real passwords and open real databases: give them room on 2 cores.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
