import type { Mailer } from '../mail/mailer.ts';

/** The same mailer, reporting each send's outcome; mail itself knows nothing of metrics. */
export function countingMailer(mailer: Mailer, onOutcome: (sent: boolean) => void): Mailer {
  return {
    async send(message) {
      try {
        await mailer.send(message);
      } catch (error) {
        onOutcome(false);
        throw error;
      }
      onOutcome(true);
    },
    close: () => mailer.close(),
  };
}
