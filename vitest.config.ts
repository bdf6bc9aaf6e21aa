import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    // The slow reliability suite (crash, load, shutdown, fuzzing) runs with `npm run test:reliability`.
    exclude: [...configDefaults.exclude, '**/*.reliability.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    // API tests hash real passwords and open real databases: give them room on 2 cores.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
