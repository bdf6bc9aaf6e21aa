import type net from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as received: its envelope recipient, raw bytes (for DKIM) and parsed parts. */
export interface RawMail {
  to: string;
  raw: Buffer;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

export interface RulesSmtp {
  url: string;
  port: number;
  messages: RawMail[];
  /** The reply code a recipient gets at RCPT TO (550 refuses for good, 451 for now); none accepts. */
  refuse: Map<string, number>;
  /** Recipients refused with 451 once (their first attempt), then accepted. */
  delayOnce: Set<string>;
  /** Every message's DATA waits this long before its 250 (a slower server). */
  delayMs: number;
  /** Recipients accepted at RCPT TO whose message has not been answered yet. */
  inFlight: Set<string>;
  /** Resolves once `count` messages matching `filter` arrived. */
  waitFor(count: number, filter?: (mail: RawMail) => boolean, timeoutMs?: number): Promise<RawMail[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on loopback with rules per recipient, for newsletter tests:
 * a permanent 550, a temporary 451 once, a delay per message. Keeps each message's raw bytes.
 */
export async function startRulesSmtp(): Promise<RulesSmtp> {
  const messages: RawMail[] = [];
  const refuse = new Map<string, number>();
  const delayOnce = new Set<string>();
  const state = { delayMs: 0 };
  const waiters = new Set<() => void>();
  const inFlight = new Set<string>();
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    hideSTARTTLS: true,
    authOptional: true,
    allowInsecureAuth: true,
    closeTimeout: 100,
    size: 10 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anyone' });
    },
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      const code = refuse.get(to);
      if (code !== undefined) {
        const error = new Error(code >= 500 ? 'No such mailbox here' : 'Try again later') as Error & {
          responseCode: number;
        };
        error.responseCode = code;
        return callback(error);
      }
      if (delayOnce.has(to)) {
        delayOnce.delete(to);
        const error = new Error('Greylisted, try again later') as Error & { responseCode: number };
        error.responseCode = 451;
        return callback(error);
      }
      inFlight.add(to);
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        void simpleParser(raw).then((parsed) => {
          const finish = () => {
            for (const rcpt of session.envelope.rcptTo) {
              inFlight.delete(rcpt.address.toLowerCase());
              messages.push({
                to: rcpt.address.toLowerCase(),
                raw,
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                headers: Object.fromEntries(
                  parsed.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(':') + 1).trim()]),
                ),
              });
            }
            callback();
            for (const check of [...waiters]) check();
          };
          if (state.delayMs > 0) setTimeout(finish, state.delayMs);
          else finish();
        }, callback);
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    refuse,
    delayOnce,
    inFlight,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    waitFor(count, filter = () => true, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.filter(filter);
          if (found.length < count) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`only ${messages.filter(filter).length} of ${count} messages arrived in ${timeoutMs} ms`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
