import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';

export interface OutboxMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** Where the dev outbox keeps its messages (SMTP_URL unset). */
export function outboxDir(dataDir: string): string {
  return path.resolve(dataDir, 'outbox');
}

/**
 * Writes the message as an RFC 5322 .eml file (multipart text + html) under
 * `${dataDir}/outbox/` and returns its path. The files hold secret reset links, so only the
 * server's user may read them.
 */
export async function writeOutboxMessage(dataDir: string, message: OutboxMessage): Promise<string> {
  const outbox = outboxDir(dataDir);
  await fs.mkdir(outbox, { recursive: true, mode: 0o700 });
  const raw = await new MailComposer(message).compile().build();
  // Colons in an ISO time are not allowed in file names on every system a data dir may be mounted from.
  const stamp = new Date().toISOString().replaceAll(':', '-');
  const file = path.join(outbox, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
  await fs.writeFile(file, raw, { flag: 'wx', mode: 0o600 });
  return file;
}
