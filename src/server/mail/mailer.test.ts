import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { createMailer, MailDeliveryError, type Mailer, type MailerLog, type MailMessage } from './mailer.ts';

const SECRET_CODE = 'oob-secret-9f8e7d6c5b4a';
const SMTP_PASSWORD = 's3cret-smtp-pa55';

const message: MailMessage = {
  to: 'Reader@example.com',
  subject: 'Reset your password for Inkwell',
  text: `Follow this link to reset your password: http://localhost/reset-password?oobCode=${SECRET_CODE}\n`,
  html: `<p>Follow <a href="http://localhost/reset-password?oobCode=${SECRET_CODE}">this link</a> to reset your password.</p>`,
};

/** A log that keeps every call, so tests can read exactly what would have been written. */
function capturingLog() {
  const lines: { level: string; obj: object; msg?: string }[] = [];
  const log: MailerLog = {
    info: (obj, msg) => lines.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => lines.push({ level: 'error', obj, msg }),
  };
  const text = () => lines.map((line) => JSON.stringify(line)).join('\n');
  return { lines, log, text };
}

function expectNoSecrets(logText: string) {
  expect(logText).not.toContain(SECRET_CODE);
  // The recipient is personal data: the log names the domain only.
  expect(logText.toLowerCase()).not.toContain(message.to.toLowerCase().split('@')[0]);
  expect(logText).not.toContain('Follow this link');
  expect(logText).not.toContain(SMTP_PASSWORD);
}

function withCredentials(sinkUrl: string): string {
  const url = new URL(sinkUrl);
  url.username = 'mailer';
  url.password = SMTP_PASSWORD;
  return url.toString();
}

describe('mailer over SMTP', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });

  async function sink(mode: 'accept' | 'reject' | 'hang'): Promise<SmtpSink> {
    const started = await startSmtpSink({ mode });
    cleanups.push(() => started.close());
    return started;
  }

  function mailer(smtpUrl: string, log: MailerLog, timeoutMs?: number): Mailer {
    const created = createMailer({
      smtpUrl,
      from: 'Inkwell <no-reply@localhost>',
      dataDir: '/nonexistent',
      log,
      timeoutMs,
    });
    cleanups.push(() => created.close());
    return created;
  }

  it('delivers a message with sender, recipient, subject, text and html intact, logging no body or password', async () => {
    const smtp = await sink('accept');
    const { log, lines, text } = capturingLog();
    await mailer(withCredentials(smtp.url), log).send(message);

    const received = await smtp.waitForMail('READER@example.com');
    expect(received.from).toBe('Inkwell <no-reply@localhost>');
    expect(received.to).toEqual(['Reader@example.com']);
    expect(received.subject).toBe(message.subject);
    expect(received.text.trim()).toBe(message.text.trim());
    expect(received.html.trim()).toBe(message.html);

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      obj: { recipientDomain: 'example.com', subject: message.subject },
    });
    expect((lines[0]!.obj as { messageId?: string }).messageId).toMatch(/^<.+@.+>$/);
    expectNoSecrets(text());
  });

  it('rejects with MailDeliveryError when the server refuses the message', async () => {
    const smtp = await sink('reject');
    const { log, text } = capturingLog();
    const sending = mailer(withCredentials(smtp.url), log).send(message);
    await expect(sending).rejects.toBeInstanceOf(MailDeliveryError);
    await expect(sending).rejects.toThrow(/554/);
    expect(smtp.messages).toHaveLength(0);
    expectNoSecrets(text());
  });

  it('rejects with MailDeliveryError, not a hang, when the server never greets', async () => {
    const smtp = await sink('hang');
    const { log, text } = capturingLog();
    const timeoutMs = 500;
    const started = performance.now();
    await expect(mailer(withCredentials(smtp.url), log, timeoutMs).send(message)).rejects.toBeInstanceOf(
      MailDeliveryError,
    );
    expect(performance.now() - started).toBeLessThan(timeoutMs + 2000);
    expectNoSecrets(text());
  });

  it('rejects with MailDeliveryError in time when the server keeps the connection busy but never finishes', async () => {
    // Greets, then answers EHLO with an endless trickle of continuation lines: the socket is
    // never idle, so only the overall send deadline can end the wait.
    const timers = new Set<NodeJS.Timeout>();
    const sockets = new Set<net.Socket>();
    const trickle = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.write('220 trickle ESMTP\r\n');
      socket.once('data', () => {
        const timer = setInterval(() => socket.write('250-still thinking\r\n'), 50);
        timers.add(timer);
        socket.on('close', () => clearInterval(timer));
      });
    });
    await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      trickle.close();
    });
    const { port } = trickle.address() as net.AddressInfo;

    const { log, text } = capturingLog();
    const timeoutMs = 500;
    const started = performance.now();
    await expect(
      mailer(withCredentials(`smtp://127.0.0.1:${port}`), log, timeoutMs).send(message),
    ).rejects.toBeInstanceOf(MailDeliveryError);
    expect(performance.now() - started).toBeLessThan(timeoutMs + 2000);
    expectNoSecrets(text());
  });

  it('rejects with MailDeliveryError when nothing listens on the port', async () => {
    const smtp = await sink('accept');
    const url = withCredentials(smtp.url);
    await smtp.close();
    const { log, text } = capturingLog();
    await expect(mailer(url, log, 2000).send(message)).rejects.toBeInstanceOf(MailDeliveryError);
    expectNoSecrets(text());
  });
});

describe('mailer without SMTP (dev outbox)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes a parseable .eml to the outbox and logs recipient, subject and file but no body', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-mail-'));
    dirs.push(dataDir);
    const { log, lines, text } = capturingLog();
    const mailer = createMailer({ smtpUrl: undefined, from: 'Inkwell <no-reply@localhost>', dataDir, log });

    await mailer.send(message);
    await mailer.send({ ...message, to: 'second@example.com' });
    await mailer.close();

    const outbox = path.join(dataDir, 'outbox');
    const files = fs.readdirSync(outbox).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{8}\.eml$/);

    const parsed = await simpleParser(fs.readFileSync(path.join(outbox, files[0]!)));
    expect(parsed.from?.value).toEqual([{ name: 'Inkwell', address: 'no-reply@localhost' }]);
    expect(Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text).toBe(message.to);
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.text?.trim()).toBe(message.text.trim());
    expect(parsed.html).toBe(message.html);
    expect(parsed.messageId).toBeTruthy();

    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 'info',
      obj: { recipientDomain: 'example.com', subject: message.subject, file: path.join(outbox, files[0]!) },
    });
    expectNoSecrets(text());
  });
});
