import nodemailer from 'nodemailer';
import { writeOutboxMessage } from './outbox.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post of a notification). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Thrown by send() when a message could not be handed over: SMTP refusal, network failure or timeout. */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
}

export interface MailerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface MailerOptions {
  /** smtp://user:pass@host:port or smtps://...; undefined → dev outbox */
  smtpUrl: string | undefined;
  /** MAIL_FROM, e.g. 'Inkwell <no-reply@localhost>' */
  from: string;
  /** The dev outbox is `${dataDir}/outbox/` */
  dataDir: string;
  log: MailerLog;
  /** Connection, greeting, socket and overall send timeout; default 10 s. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Sends email through SMTP_URL, or, when it is unset, writes each message to the dev outbox.
 * Log lines name the recipient's domain and the subject only: bodies carry secret codes, and
 * an address is personal data a log must not collect (review finding 8). The SMTP message id
 * in the line finds the message in the mail server's own records.
 */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl === undefined ? createOutboxMailer(options) : createSmtpMailer(options, options.smtpUrl);
}

function createOutboxMailer(options: MailerOptions): Mailer {
  return {
    async send(message) {
      let file: string;
      try {
        file = await writeOutboxMessage(options.dataDir, { from: options.from, ...message });
      } catch (error) {
        options.log.error(
          { recipientDomain: recipientDomain(message.to), subject: message.subject, reason: describe(error) },
          'email not written',
        );
        throw new MailDeliveryError('Could not write the email to the dev outbox', { cause: error });
      }
      options.log.info(
        { recipientDomain: recipientDomain(message.to), subject: message.subject, file },
        'email written to the dev outbox (SMTP_URL not set)',
      );
    },
    close: async () => {},
  };
}

function createSmtpMailer(options: MailerOptions, smtpUrl: string): Mailer {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const secrets = urlSecrets(smtpUrl);
  // One connection per message: email here is rare (password resets), and a fresh connection
  // cannot be left stuck behind a stalled one the way a pooled queue can.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    logger: false,
    debug: false,
  });

  return {
    async send(message) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new MailDeliveryError(`SMTP server did not complete delivery within ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      try {
        const info = await Promise.race([transport.sendMail({ from: options.from, ...message }), timeout]);
        options.log.info(
          { recipientDomain: recipientDomain(message.to), subject: message.subject, messageId: info.messageId },
          'email sent',
        );
      } catch (error) {
        const reason = scrub(describe(error), secrets);
        options.log.warn(
          { recipientDomain: recipientDomain(message.to), subject: message.subject, reason },
          'email not sent',
        );
        if (error instanceof MailDeliveryError) throw error;
        throw new MailDeliveryError(`SMTP delivery failed: ${reason}`);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      transport.close();
    },
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}

/** The credentials in an SMTP URL, in every spelling an error message might echo. */
function urlSecrets(smtpUrl: string): string[] {
  const url = new URL(smtpUrl);
  return [url.password, decodeURIComponent(url.password)].filter((secret) => secret.length > 0);
}

function scrub(text: string, secrets: string[]): string {
  return secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}

/** The part of an address after its last @: enough to see a provider refusing mail, naming no one. */
export function recipientDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at === -1 ? '' : address.slice(at + 1).toLowerCase();
}
