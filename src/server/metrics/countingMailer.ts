import type { Mailer } from '../mail/mailer.ts';

/**
 * The same mailer, reporting each send the mail server refused; mail itself knows nothing of
 * metrics. Successful sends are not counted: a password reset mails known addresses only, so a
 * count of sent mail would tell them from unknown ones (decision 0021). A refusal is already
 * told to the client (decision 0005), so counting it reveals nothing new.
 */
export function countingMailer(mailer: Mailer, onFailure: () => void): Mailer {
  return {
    async send(message) {
      try {
        await mailer.send(message);
      } catch (error) {
        onFailure();
        throw error;
      }
    },
    close: () => mailer.close(),
  };
}
