import { randomBytes } from 'node:crypto';
import { ensureWebBuild } from '../../src/server/web/webBuild.ts';
import { dropDatabases, POOLED_DATABASES_PREFIX_VARIABLE } from './testDatabases.ts';

/**
 * Route and API tests need no web build (testApp.ts serves a fixture shell). The tests of the
 * real process (main.ts, scale-out, crash) and of the real build's files serve dist/web:
 * built once here, when stale, rather than by several test processes at the same time.
 */
export default async function setup() {
  await ensureWebBuild((message) => console.log(message));
  // Test processes reuse the PostgreSQL databases they empty (testDatabases.ts); the run's
  // prefix names them all, and the teardown drops them.
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return;
  const prefix = `inkwell_test_${randomBytes(3).toString('hex')}_`;
  process.env[POOLED_DATABASES_PREFIX_VARIABLE] = prefix;
  return () => dropDatabases(adminUrl, prefix);
}
