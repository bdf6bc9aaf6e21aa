import type { Mailer, MailMessage } from '../../../mail/mailer.ts';
import type { CoreLog } from '../origin.ts';

/** Sends an email without holding up the answer; failures are logged without the message or address. */
export function sendInBackground(mailer: Mailer, log: CoreLog, message: MailMessage, what: string): void {
  mailer.send(message).catch((error: unknown) => {
    log.warn(
      { err: error instanceof Error ? { name: error.name, message: error.message } : error, what },
      'email not sent',
    );
  });
}
