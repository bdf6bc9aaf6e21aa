import nodemailer from 'nodemailer';
import { writeOutboxMessage } from './outbox.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post of a notification). */
  headers?: Record<string, string>;
  /** Another sender than MAIL_FROM (a newsletter's is the site's title at MAIL_FROM's address). */
  from?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Thrown by send() when a message could not be handed over: SMTP refusal, network failure or timeout. */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
  /**
   * The SMTP server's reply code when it refused (550 a permanent refusal, 451 a temporary
   * one); undefined for network failures and timeouts, which are temporary too.
   */
  readonly responseCode: number | undefined;
  constructor(message: string, options?: { cause?: unknown; responseCode?: number | undefined }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.responseCode = options?.responseCode;
  }
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
  /**
   * Keep this many SMTP connections open and reuse them (newsletters, MAIL_POOL_SIZE); without
   * it each message has a connection of its own.
   */
  poolSize?: number | undefined;
  /** Sign every message with DKIM (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE). */
  dkim?: { domainName: string; keySelector: string; privateKey: string } | undefined;
  /** false: log only failures (a newsletter logs its sends, not each of thousands of messages). */
  logSent?: boolean | undefined;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** The header fields a DKIM signature covers, when present (h= of RFC 6376 §3.5). */
const DKIM_SIGNED_HEADERS = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'List-Id',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
].join(':');

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
  // One connection per message for account mail: it is rare (password resets), and a fresh
  // connection cannot be left stuck behind a stalled one the way a pooled queue can. Newsletters
  // ask for a pool (MAIL_POOL_SIZE): thousands of messages, each its own connection, would spend
  // most of their time in TCP and EHLO.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    ...(options.poolSize ? { pool: true, maxConnections: options.poolSize, maxMessages: Infinity } : {}),
    // The signature covers the one-click unsubscribe headers too (RFC 8058 §4 asks for both).
    ...(options.dkim ? { dkim: { ...options.dkim, headerFieldNames: DKIM_SIGNED_HEADERS } } : {}),
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
        if (options.logSent !== false)
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
        const responseCode = (error as { responseCode?: unknown }).responseCode;
        throw new MailDeliveryError(`SMTP delivery failed: ${reason}`, {
          responseCode: typeof responseCode === 'number' ? responseCode : undefined,
        });
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
