import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleDetailSchema } from '../../shared/articleSchema.ts';
import { articlesApi, sampleArticle, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startSecondServer, type SecondServer } from '../../../test/support/secondServer.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `id` is public (published) through `baseUrl`, and returns it. */
async function publishedThrough(baseUrl: string, id: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await articlesApi(baseUrl).get(id);
    if (answer.status === 200) return articleDetailSchema.parse(answer.body);
    if (Date.now() > deadline) throw new Error(`not published: ${answer.status} ${answer.text}`);
    await sleep(200);
  }
}

/**
 * Scheduled publication (DESIGN.md §9.6, decision 0852) with the real scheduler of every
 * process: two servers on one database publish an article once, at its time, with one
 * newsletter; a server started after the time publishes at once.
 */
describe.each(storageDatabases())('scheduled publishing on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let first: TestApp;
  let second: SecondServer;
  let author: TestUser;

  beforeAll(async () => {
    sink = await startSmtpSink();
    first = await startTestApp(dialectCase, {
      NEWSLETTER: 'on',
      SMTP_URL: sink.url,
      SITE_TITLE: 'The Quill',
      PUBLIC_URL: 'https://blog.example.com',
      MAIL_FROM: 'Inkwell <news@blog.example.com>',
    });
    second = await startSecondServer(first);
    author = await signUpAs(first, 'Ann Author', 'author', { verified: true });
    // One confirmed subscriber, through the API and the mailed link.
    const subscribe = await fetch(`${first.url}/api/subscribers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'reader@example.org' }),
    });
    expect(subscribe.status).toBe(202);
    const mail = await sink.waitForMail('reader@example.org', { subject: /Confirm/ });
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    const confirm = await fetch(`${first.url}/api/subscribers/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(confirm.status).toBe(200);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await sink?.close();
  });

  it('publishes at its time once, with date = publishAt, though two processes look, and mails one newsletter', async () => {
    const publishAt = new Date(Math.ceil((Date.now() + 2500) / 1000) * 1000).toISOString();
    const created = await articlesApi(first.url).create(author.idToken, {
      ...sampleArticle('Midwinter notes'),
      status: 'scheduled',
      publishAt,
    });
    expect(created.status, created.text).toBe(201);
    const { id } = articleDetailSchema.parse(created.body);
    // Not yet: nobody but its author sees it.
    expect((await articlesApi(second.url).get(id)).status).toBe(404);

    const published = await publishedThrough(second.url, id);
    expect(published).toMatchObject({ status: 'published', date: publishAt });
    expect(published.publishAt).toBeUndefined();
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(publishAt));
    expect((await articlesApi(first.url).get(id)).body).toMatchObject({ status: 'published', date: publishAt });

    const newsletter = await sink.waitForMail('reader@example.org', { subject: /Midwinter notes/ });
    expect(newsletter.text).toContain(`/article/${id}`);
    // Both processes went on polling: still one newsletter.
    await sleep(1500);
    const sent = sink.messages.filter(
      (message) => message.to.includes('reader@example.org') && /Midwinter notes/.test(message.subject),
    );
    expect(sent).toHaveLength(1);
  });
});

describe.each(storageDatabases())('scheduled publishing across a restart on $dialect', (dialectCase) => {
  it('publishes at once, in a process started after the time, what was scheduled before', async () => {
    const database = await dialectCase.create();
    try {
      const before = await startTestApp(dialectCase, {}, { database });
      let id: string;
      const publishAt = new Date(Date.now() + 1500).toISOString();
      try {
        const author = await signUpAs(before, 'Ann Author');
        const created = await articlesApi(before.url).create(author.idToken, {
          ...sampleArticle('While we were down'),
          status: 'scheduled',
          publishAt,
        });
        expect(created.status, created.text).toBe(201);
        id = articleDetailSchema.parse(created.body).id;
      } finally {
        await before.close();
      }
      await sleep(Math.max(0, Date.parse(publishAt) - Date.now()) + 200);
      const after = await startTestApp(dialectCase, {}, { database });
      try {
        // The first poll runs as the server starts: no waiting for the next one.
        const published = await publishedThrough(after.url, id, 900);
        expect(published).toMatchObject({ status: 'published', date: publishAt });
      } finally {
        await after.close();
      }
    } finally {
      await database.dispose();
    }
  });
});
