import net from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

/** One email as the sink received it: envelope recipients, header sender, parsed content. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Each header's raw value by its lower-case name (the last one of a name wins). */
  headers: Record<string, string>;
}

export interface SmtpSink {
  /** 'smtp://127.0.0.1:PORT' */
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Resolves with the first message (at index `after` or later) addressed to `to`. */
  /** The first mail to `to` (after index `after`, with a subject matching `subject` when given). */
  waitForMail(to: string, options?: { timeoutMs?: number; after?: number; subject?: RegExp }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export type SmtpSinkMode = 'accept' | 'reject' | 'hang';

const DEFAULT_WAIT_MS = 10_000;

/**
 * A real SMTP server on loopback for tests. 'accept' keeps every message, 'reject' answers
 * every message with a 5xx, 'hang' accepts connections and never says a word.
 */
export async function startSmtpSink(options: { mode?: SmtpSinkMode; port?: number } = {}): Promise<SmtpSink> {
  const mode = options.mode ?? 'accept';
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();

  const { port, close } =
    mode === 'hang'
      ? await listenSilently(options.port ?? 0)
      : await listenSmtp(options.port ?? 0, mode, (mail) => {
          messages.push(mail);
          for (const check of [...waiters]) check();
        });

  function waitForMail(
    to: string,
    waitOptions: { timeoutMs?: number; after?: number; subject?: RegExp } = {},
  ): Promise<ReceivedMail> {
    const wanted = to.toLowerCase();
    const timeoutMs = waitOptions.timeoutMs ?? DEFAULT_WAIT_MS;
    const after = waitOptions.after ?? 0;
    const { subject } = waitOptions;
    const find = () =>
      messages
        .slice(after)
        .find(
          (m) =>
            m.to.some((address) => address.toLowerCase() === wanted) &&
            (subject === undefined || subject.test(m.subject)),
        );

    return new Promise((resolve, reject) => {
      const found = find();
      if (found) return resolve(found);
      const check = () => {
        const mail = find();
        if (!mail) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(mail);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        const seen = messages.slice(after).map((m) => m.to.join(','));
        reject(
          new Error(
            `No email to ${to} arrived at the SMTP sink within ${timeoutMs} ms ` +
              `(messages since index ${after}: ${seen.length ? seen.join('; ') : 'none'})`,
          ),
        );
      }, timeoutMs);
      waiters.add(check);
    });
  }

  return { url: `smtp://127.0.0.1:${port}`, port, messages, waitForMail, close };
}

async function listenSmtp(
  port: number,
  mode: 'accept' | 'reject',
  onMail: (mail: ReceivedMail) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    logger: false,
    // Plain-text loopback only: no TLS, any credentials accepted, none required.
    disabledCommands: ['STARTTLS'],
    hideSTARTTLS: true,
    authOptional: true,
    allowInsecureAuth: true,
    // Pooled clients keep connections open; do not wait the default 30 s on close.
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anyone' });
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      if (mode === 'reject') {
        stream.resume();
        stream.on('end', () => {
          const error = new Error('Message rejected by the test sink') as Error & { responseCode: number };
          error.responseCode = 554;
          callback(error);
        });
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          onMail({
            from: addressText(parsed.from),
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: Object.fromEntries(
              parsed.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(':') + 1).trim()]),
            ),
          });
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as net.AddressInfo;
  return {
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that accepts connections and never sends the SMTP greeting. */
async function listenSilently(port: number): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** 'Name <address>' (unquoted, as written in MAIL_FROM) or just the address. */
function addressText(address: AddressObject | AddressObject[] | undefined): string {
  const entries = (Array.isArray(address) ? address : address ? [address] : []).flatMap((a) => a.value);
  return entries.map((entry) => (entry.name ? `${entry.name} <${entry.address}>` : (entry.address ?? ''))).join(', ');
}
