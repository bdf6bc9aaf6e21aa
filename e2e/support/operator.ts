import { expect } from '@playwright/test';
import type { Role } from '../../src/shared/roles.ts';
import { runAdminProcess } from '../../test/support/adminRunner.ts';

/**
 * Gives `email` a role the operator's way, `npm run admin -- users role EMAIL ROLE`, as a process
 * of its own against the database in `dataDir` (default: this worker's e2e server's). A token
 * issued before carries the old role: sign in afterwards.
 */
export async function giveRole(email: string, role: Role, dataDir = process.env.E2E_DATA_DIR!): Promise<void> {
  const run = await runAdminProcess(['users', 'role', email, role], { DATA_DIR: dataDir });
  expect(run.code, run.stderr).toBe(0);
}
