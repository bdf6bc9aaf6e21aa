import { expect } from '@playwright/test';
import type { Role } from '../../src/shared/roles.ts';
import { runAdmin } from '../../test/support/adminRunner.ts';

/**
 * Gives `email` a role the operator's way, `npm run admin -- users role EMAIL ROLE`, against the
 * database in `dataDir` (default: this worker's e2e server's). A token issued before carries the
 * old role: sign in afterwards. The command runs in this worker (its door is tested as a process
 * of its own in src/server/admin/adminCommand.test.ts): a process per call cost 0.62 core-seconds
 * and half a second; five role-giving specs, one worker, 87 → 84 core-s and 86 → 78 s.
 */
export async function giveRole(email: string, role: Role, dataDir = process.env.E2E_DATA_DIR!): Promise<void> {
  const run = await runAdmin(['users', 'role', email, role], { DATA_DIR: dataDir });
  expect(run.code, run.stderr).toBe(0);
}
