import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    // The slow reliability suite (crash, load, shutdown, fuzzing) runs with `npm run test:reliability`.
    exclude: [...configDefaults.exclude, '**/*.reliability.test.ts'],
    globalSetup: ['test/support/globalSetup.ts', 'test/support/compileCacheSetup.ts'],
    // Vitest's default is one worker per core less one: a single worker on 2 cores. Much of a
    // test's time is waiting (PostgreSQL, argon2 on libuv's threads, mail timeouts), so two
    // finish sooner; three made the tests that start Node processes (servers, backups)
    // miss their 30 s on a loaded 2-core machine. VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    // A worker runs its files one after another in one module registry instead of importing the
    // app afresh for each file: importing was a fifth of the CPU time, and the tests leave no
    // state behind them (each starts its own app, database and data folder). Decision 0440.
    // VITEST_ISOLATE=true brings back a fresh registry per file, to tell whether a failure
    // comes from a file run before.
    isolate: process.env.VITEST_ISOLATE === 'true',
    // API tests hash real passwords and open real databases, and some start Node processes
    // (servers, backups, the admin door) several times: give them room on 2 cores shared by 2 workers.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
