import type { Config } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/database.ts';
import { createMailer } from '../../src/server/mail/mailer.ts';
import { createServices } from '../../src/server/services.ts';
import type { Role } from '../../src/shared/roles.ts';

/**
 * Disables an account the way an operator does (`npm run admin -- users disable`), through the
 * identity core's operator operations on the server's database, without starting a process.
 */
export async function disableAccount(server: { config: Config; database: Database }, email: string): Promise<void> {
  const mailer = createMailer({
    smtpUrl: server.config.smtpUrl,
    from: server.config.mailFrom,
    dataDir: server.config.dataDir,
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  const { identity } = createServices({ config: server.config, database: server.database, mailer });
  if (!(await identity.admin.disableUser(email))) throw new Error('no account to disable');
}

/** Gives an account a role the way an operator does (`npm run admin -- users role EMAIL ROLE`). */
export async function setRole(
  server: { config: Config; database: Database },
  email: string,
  role: Role,
): Promise<void> {
  const mailer = createMailer({
    smtpUrl: server.config.smtpUrl,
    from: server.config.mailFrom,
    dataDir: server.config.dataDir,
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  const { identity } = createServices({ config: server.config, database: server.database, mailer });
  if (!(await identity.admin.setRole(email, role))) throw new Error('no account to give a role');
}
