import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from './smtpSink.ts';

describe('SMTP sink', () => {
  const sinks: SmtpSink[] = [];
  afterEach(async () => {
    await Promise.all(sinks.splice(0).map((sink) => sink.close()));
  });

  async function send(sink: SmtpSink, to: string, subject: string) {
    const transport = nodemailer.createTransport(sink.url);
    try {
      await transport.sendMail({
        from: 'Inkwell <no-reply@localhost>',
        to,
        subject,
        text: subject,
        html: `<p>${subject}</p>`,
      });
    } finally {
      transport.close();
    }
  }

  it('finds mail by recipient, case-insensitively, from a given index on', async () => {
    const sink = await startSmtpSink();
    sinks.push(sink);
    expect(sink.url).toBe(`smtp://127.0.0.1:${sink.port}`);

    const waiting = sink.waitForMail('Later@Example.com');
    await send(sink, 'first@example.com', 'one');
    await send(sink, 'later@example.com', 'two');
    expect((await waiting).subject).toBe('two');

    const after = sink.messages.length;
    await send(sink, 'later@example.com', 'three');
    expect((await sink.waitForMail('later@example.com', { after })).subject).toBe('three');
    expect(sink.messages.map((m) => m.subject)).toEqual(['one', 'two', 'three']);
    expect(sink.messages[0]).toEqual({
      from: 'Inkwell <no-reply@localhost>',
      to: ['first@example.com'],
      subject: 'one',
      text: 'one',
      html: '<p>one</p>',
      headers: expect.objectContaining({ subject: 'one', to: 'first@example.com' }),
    });
  });

  it('says clearly when the awaited mail never came', async () => {
    const sink = await startSmtpSink();
    sinks.push(sink);
    await send(sink, 'someone@example.com', 'hello');
    await expect(sink.waitForMail('nobody@example.com', { timeoutMs: 200 })).rejects.toThrow(
      'No email to nobody@example.com arrived at the SMTP sink within 200 ms (messages since index 0: someone@example.com)',
    );
  });

  it('refuses every message with a 5xx in reject mode', async () => {
    const sink = await startSmtpSink({ mode: 'reject' });
    sinks.push(sink);
    await expect(send(sink, 'someone@example.com', 'hello')).rejects.toMatchObject({ responseCode: 554 });
    expect(sink.messages).toEqual([]);
  });
});
