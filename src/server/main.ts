import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { terminalLogStream } from './http/terminalLog.ts';
import { FIRST_OWNER_HINT, hasOwner } from './identity/firstOwner.ts';
import { outboxDir } from './mail/outbox.ts';
import { ensureWebBuild, webDistDir } from './web/webBuild.ts';

// How long in-flight requests get to finish after SIGTERM before the process gives up.
const SHUTDOWN_GRACE_MS = 8000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }

  if (process.env.INKWELL_SKIP_WEB_BUILD !== 'true') {
    await ensureWebBuild((message) => console.log(message));
  }

  const database = openDatabase(config.database);
  await migrateToLatest(database);
  // On a terminal, lines a person reads; otherwise JSON lines for a log collector.
  const logger = process.stdout.isTTY ? { stream: terminalLogStream() } : undefined;
  const app = await buildApp({ config, database, webDistDir, ...(logger ? { logger } : {}) });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    await app.close();
    await database.close();
    app.log.info('shut down cleanly');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Inkwell is running: open ${config.publicUrl} in a browser`);
  if (config.smtpUrl === undefined) {
    const outbox = outboxDir(config.dataDir);
    app.log.info(`SMTP_URL is not set: emails are written to ${outbox} as .eml files, not sent`);
  }
  if (!(await hasOwner(database))) app.log.info(FIRST_OWNER_HINT);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Inkwell failed to start: ${error.message}` : error);
  process.exit(1);
});
