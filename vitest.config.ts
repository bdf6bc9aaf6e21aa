import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    globalSetup: ['src/server/testing/globalSetup.ts'],
    // API tests hash real passwords and open real databases: give them room on 2 cores.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
