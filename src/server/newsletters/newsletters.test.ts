import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { authenticate } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startRulesSmtp, type RawMail, type RulesSmtp } from '../../../test/support/recipientRulesSmtp.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { signUpWithVerifiedAddress } from '../../../test/support/verifiedAccounts.ts';
import { createUnsubscribe } from '../unsubscribe/createUnsubscribe.ts';
import { createSubscribers } from './subscribers.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';

const unsubscribeOf = (server: TestApp) =>
  createUnsubscribe({
    database: server.database,
    publicUrl: 'https://blog.example.com',
    site: { title: 'x' },
    listNames: {},
  });

// DESIGN.md §9.3 through real HTTP and a real SMTP server (smtp-server) with a 550 and a 451.
describe.each(storageDatabases())('newsletters on $dialect', (dialectCase) => {
  let smtp: RulesSmtp;
  let server: TestApp;
  let author: TestUser;
  let editor: TestUser;
  let keyDir: string;
  let publicKey: string;
  // The app's clock runs with real time plus what the test adds (retries come due).
  let skew = 0;
  const api = () => articlesApi(server.url);
  const json = async (method: string, url: string, body?: unknown, token?: string) => {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
  };
  const tokenIn = (mail: RawMail) => /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;

  /** Subscribes through the API and confirms through the mailed link's POST. */
  async function subscribed(email: string) {
    const before = smtp.messages.length;
    expect((await json('POST', '/api/subscribers', { email })).status).toBe(202);
    const [mail] = await smtp.waitFor(
      1,
      (m) => m.to === email && /Confirm/.test(m.subject) && smtp.messages.indexOf(m) >= before,
    );
    expect((await json('POST', '/api/subscribers/confirm', { token: tokenIn(mail!) })).status).toBe(200);
  }

  async function sendsDone(count: number, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await json('GET', '/api/newsletters', undefined, editor.idToken);
      const sends = answer.body.sends as { status: string }[];
      if (sends.length >= count && sends.every((send) => send.status === 'done')) return answer.body;
      if (Date.now() > deadline) throw new Error(`sends not done: ${answer.text}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    smtp = await startRulesSmtp();
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-dkim-'));
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    fs.writeFileSync(path.join(keyDir, 'dkim.pem'), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    publicKey = keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    server = await startTestApp(
      dialectCase,
      {
        NEWSLETTER: 'on',
        SMTP_URL: smtp.url,
        SITE_TITLE: 'The Quill',
        PUBLIC_URL: 'https://blog.example.com',
        MAIL_FROM: 'Inkwell <news@blog.example.com>',
        MAIL_POOL_SIZE: '2',
        DKIM_DOMAIN: 'blog.example.com',
        DKIM_SELECTOR: 'ink1',
        DKIM_PRIVATE_KEY_FILE: path.join(keyDir, 'dkim.pem'),
      },
      { clock: () => Date.now() + skew },
    );
    author = await signUpWithVerifiedAddress(server, 'Ann Author');
    editor = await signUpAs(server, 'Eddie Editor', 'editor', { verified: true });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    if (keyDir) fs.rmSync(keyDir, { recursive: true, force: true });
  });

  it('answers the same for a new and a known address, mails a confirmation that a GET does not confirm', async () => {
    await subscribed('known@example.org');
    const before = smtp.messages.length;
    const known = await json('POST', '/api/subscribers', { email: 'Known@Example.org' });
    const fresh = await json('POST', '/api/subscribers', { email: 'fresh@example.org' });
    expect(known.status).toBe(202);
    expect(fresh.status).toBe(202);
    expect(known.text).toBe(fresh.text);
    const [mail] = await smtp.waitFor(1, (m) => m.to === 'fresh@example.org');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The known, confirmed address got nothing.
    expect(smtp.messages.slice(before).filter((m) => m.to === 'known@example.org')).toEqual([]);
    const link = /https:\/\/blog\.example\.com(\/subscribe\/confirm\?token=[A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!;
    // A mail scanner following the link: a page with a button, nothing confirmed.
    const page = await fetch(`${server.url}${link}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<button type="submit">Confirm</button>');
    const staff = await json('GET', '/api/subscribers?q=fresh', undefined, editor.idToken);
    expect(staff.body.subscribers).toMatchObject([{ email: 'fresh@example.org', status: 'pending' }]);
    // The page's form (no script) confirms.
    const confirmed = await fetch(`${server.url}/subscribe/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${tokenIn(mail!)}`,
    });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('You are subscribed');
    const after = await json('GET', '/api/subscribers?q=fresh', undefined, editor.idToken);
    expect(after.body.subscribers).toMatchObject([{ email: 'fresh@example.org', status: 'confirmed' }]);
    // Readers may not list subscribers.
    expect((await json('GET', '/api/subscribers', undefined, author.idToken)).status).toBe(403);
  });

  it('mails a first publication once to each subscriber: DKIM-signed, one-click unsubscribe, 550 bounced, 451 retried', async () => {
    for (const email of ['reader@example.org', 'bounce@example.org', 'slow@example.org', 'leaver@example.org']) {
      await subscribed(email);
    }
    smtp.refuse.set('bounce@example.org', 550);
    smtp.delayOnce.add('slow@example.org');
    const audience = await json('GET', '/api/newsletters/audience', undefined, author.idToken);
    expect(audience.body).toEqual({ enabled: true, subscribers: 6 });

    const before = smtp.messages.length;
    const made = await api().create(author.idToken, {
      ...sampleArticle('Spring in the valley'),
      description:
        'Read [the earlier one](https://elsewhere.example.net/post?id=7) and look:\n\n![A hill](https://images.example.com/hill.jpg)',
    });
    expect(made.status, made.text).toBe(201);
    const articleId = made.body.id as string;
    const isNewsletter = (m: RawMail) => m.subject === 'Spring in the valley';
    await smtp.waitFor(4, isNewsletter); // known, fresh, reader, leaver (slow@ waits, bounce@ refused)
    // slow@ was refused with 451: it is retried after the back-off (the app's clock moves on).
    // slow@ was refused with 451: retried after the back-off, which the app's clock passes.
    for (let i = 0; i < 20 && !smtp.messages.some((m) => isNewsletter(m) && m.to === 'slow@example.org'); i += 1) {
      skew += 2 * 60 * 1000;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const all = await smtp.waitFor(5, isNewsletter);
    const progress = await sendsDone(1);
    expect(progress.sends[0]).toMatchObject({ articleId, title: 'Spring in the valley', total: 6, sent: 5, failed: 1 });
    expect(all.filter((m) => m.to === 'slow@example.org')).toHaveLength(1);
    expect(all.filter((m) => m.to === 'bounce@example.org')).toHaveLength(0);
    // Exactly one each.
    expect(new Set(all.map((m) => m.to)).size).toBe(all.length);
    // The 550 marked the subscriber bounced.
    const bounced = await json('GET', '/api/subscribers?q=bounce', undefined, editor.idToken);
    expect(bounced.body.subscribers).toMatchObject([{ email: 'bounce@example.org', status: 'bounced' }]);

    const mail = all.find((m) => m.to === 'reader@example.org')!;
    expect(mail.headers.from).toMatch(/^"?The Quill"? <news@blog\.example\.com>$/);
    expect(mail.headers['list-id']).toBe('The Quill <newsletter.blog.example.com>');
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribeUrl = /^<(https:\/\/blog\.example\.com\/unsubscribe\?token=[A-Za-z0-9_-]{43})>$/.exec(
      mail.headers['list-unsubscribe']!,
    )![1]!;
    expect(mail.html).toContain(`href="${unsubscribeUrl}"`);
    expect(mail.html).toContain('href="https://elsewhere.example.net/post?id=7"');
    expect(mail.html).toContain('src="https://images.example.com/hill.jpg"');
    expect(mail.html).toContain(`href="https://blog.example.com/article/${articleId}"`);
    expect(mail.html).toContain('Read it on The Quill');
    expect(mail.html).toContain('src="https://images.example.com/photo.jpg"');
    expect(mail.text).toContain('(https://elsewhere.example.net/post?id=7)');
    expect(mail.text).toContain(`Read it on The Quill: https://blog.example.com/article/${articleId}`);
    expect(mail.text).toContain(unsubscribeUrl);
    // No tracking: every link and image goes where the author (or the site) pointed it.
    expect(mail.html).not.toMatch(/width="1"|height="1"/);

    // DKIM verified by a real verifier against the published key; the unsubscribe headers are signed.
    const verified = await authenticate(mail.raw, {
      ip: '127.0.0.1',
      helo: 'localhost',
      mta: 'mx.example.org',
      sender: 'news@blog.example.com',
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === 'ink1._domainkey.blog.example.com') return [[`v=DKIM1; k=rsa; p=${publicKey}`]];
        const error = new Error('no such record') as Error & { code: string };
        error.code = 'ENOTFOUND';
        throw error;
      },
    });
    const dkim = verified.dkim.results[0]!;
    expect(dkim.status.result).toBe('pass');
    expect(dkim.signingDomain).toBe('blog.example.com');
    const signed = /\bh=([^;]+)/
      .exec(mail.headers['dkim-signature']!.replace(/\s+/g, ''))![1]!
      .toLowerCase()
      .split(':');
    expect(signed).toEqual(
      expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post', 'list-id', 'from', 'subject']),
    );

    // One-click unsubscribe (RFC 8058) of leaver@: no cookie, and no mail of the next send.
    const leaverMail = all.find((m) => m.to === 'leaver@example.org')!;
    const leaverUrl = /<([^>]+)>/
      .exec(leaverMail.headers['list-unsubscribe']!)![1]!
      .replace('https://blog.example.com', server.url);
    const oneClick = await fetch(leaverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    // A subscriber may have no account: the page says how to subscribe again, not "your profile".
    const unsubscribed = await oneClick.text();
    expect(unsubscribed).toContain(
      'You will get no more mail about new articles (the newsletter). To get them again, subscribe with the form at the foot of any page.',
    );
    expect(unsubscribed).not.toContain('profile');

    // An article published with newsletter: false sends nothing.
    const quiet = await api().create(author.idToken, { ...sampleArticle('Not mailed'), newsletter: false });
    expect(quiet.status, quiet.text).toBe(201);
    // A draft published later is a first publication: mailed then, to those who still want it.
    const draft = await api().create(author.idToken, { ...sampleArticle('Second letter'), status: 'draft' });
    expect(draft.status, draft.text).toBe(201);
    const published = await api().update(author.idToken, draft.body.id, {
      ...sampleArticle('Second letter'),
      status: 'published',
    });
    expect(published.status, published.text).toBe(200);
    const second = await smtp.waitFor(4, (m) => m.subject === 'Second letter');
    const done = await sendsDone(2);
    expect(done.sends.map((send: { title: string }) => send.title)).toEqual(['Second letter', 'Spring in the valley']);
    expect(done.sends[0]).toMatchObject({ total: 4, sent: 4, failed: 0, status: 'done' });
    expect(second.map((m) => m.to).sort()).toEqual([
      'fresh@example.org',
      'known@example.org',
      'reader@example.org',
      'slow@example.org',
    ]);
    // Editing the published article again sends nothing more.
    await api().update(author.idToken, draft.body.id, { ...sampleArticle('Second letter, edited') });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.messages.filter((m) => /Second letter|Not mailed/.test(m.subject))).toHaveLength(4);
    expect(smtp.messages.slice(before).filter((m) => m.to === 'leaver@example.org')).toHaveLength(1);
  });

  it('lets a signed-in reader with a verified address subscribe with one click, and an editor remove a subscriber', async () => {
    const reader = await signUpWithVerifiedAddress(server, 'Rita Reader');
    expect((await json('GET', '/api/subscribers/me', undefined, reader.idToken)).body).toEqual({
      enabled: true,
      subscribed: false,
    });
    const before = smtp.messages.length;
    expect((await json('PUT', '/api/subscribers/me', {}, reader.idToken)).body).toEqual({
      enabled: true,
      subscribed: true,
    });
    expect((await json('GET', '/api/subscribers/me', undefined, reader.idToken)).body.subscribed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      smtp.messages.slice(before).filter((m) => m.to === reader.email.toLowerCase() && /Confirm/.test(m.subject)),
    ).toEqual([]); // no confirmation mail
    const found = await json(
      'GET',
      `/api/subscribers?q=${encodeURIComponent(reader.email)}`,
      undefined,
      editor.idToken,
    );
    expect(found.body.subscribers).toMatchObject([{ email: reader.email, status: 'confirmed', account: true }]);
    expect(
      (await json('DELETE', `/api/subscribers/${found.body.subscribers[0].id}`, undefined, editor.idToken)).status,
    ).toBe(204);
    expect((await json('GET', '/api/subscribers/me', undefined, reader.idToken)).body.subscribed).toBe(false);
  });
  it('stops the next message of a send in flight for those who unsubscribe in the middle of it', async () => {
    const people = Array.from({ length: 12 }, (_, i) => `midway${i}@example.org`);
    await createSubscribers({
      database: server.database,
      unsubscribe: unsubscribeOf(server),
      now: Date.now,
    }).importConfirmed(people);
    const isFirst = (m: RawMail) => m.subject === 'Before the slow one';
    const first = await api().create(author.idToken, sampleArticle('Before the slow one'));
    expect(first.status, first.text).toBe(201);
    const firsts = await smtp.waitFor(people.length, (m) => isFirst(m) && people.includes(m.to));
    const urlOf = (to: string) =>
      /<([^>]+)>/
        .exec(firsts.find((m) => m.to === to)!.headers['list-unsubscribe']!)![1]!
        .replace('https://blog.example.com', server.url);

    // A slow mail server: the send lasts a few seconds, a message at a time per connection.
    smtp.delayMs = 150;
    try {
      const isSlow = (m: RawMail) => m.subject === 'The slow one' && people.includes(m.to);
      const slow = await api().create(author.idToken, sampleArticle('The slow one'));
      expect(slow.status, slow.text).toBe(201);
      await smtp.waitFor(1, isSlow);
      // Everyone whose message has neither arrived nor reached the mail server leaves now. A lane
      // may already be past its check for its current message (between the check and the mail
      // server's RCPT), so up to one leaver per lane may still get it; every other one is skipped.
      const arrived = new Set(smtp.messages.filter(isSlow).map((m) => m.to));
      const leavers = people.filter((to) => !arrived.has(to) && !smtp.inFlight.has(to));
      const lanes = 2 * 2; // twice MAIL_POOL_SIZE (sender.ts)
      expect(leavers.length).toBeGreaterThan(lanes);
      for (const leaver of leavers) {
        const left = await fetch(urlOf(leaver), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        });
        expect(left.status).toBe(200);
      }
      const done = await sendsDone(1, 30_000);
      const send = done.sends.find((s: { title: string }) => s.title === 'The slow one');
      const delivered = smtp.messages.filter(isSlow).map((m) => m.to);
      const reachedAnyway = leavers.filter((to) => delivered.includes(to));
      expect(reachedAnyway.length).toBeLessThanOrEqual(lanes);
      expect(send).toMatchObject({ status: 'done', skipped: leavers.length - reachedAnyway.length, failed: 0 });
      // Everyone who stayed got it, once.
      for (const to of people.filter((p) => !leavers.includes(p)))
        expect(delivered.filter((d) => d === to)).toHaveLength(1);
    } finally {
      smtp.delayMs = 0;
    }
  });

  it('subscribes a bad address nowhere, and limits subscriptions per IP', async () => {
    expect((await json('POST', '/api/subscribers', { email: 'not an address' })).status).toBe(400);
    const form = await fetch(`${server.url}/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=form-reader%40example.org',
    });
    expect(form.status).toBe(202);
    expect(await form.text()).toContain('Check your inbox');
    let last = 0;
    for (let i = 0; i < 25 && last !== 429; i += 1) {
      last = (await json('POST', '/api/subscribers', { email: `flood${i}@example.org` })).status;
    }
    expect(last).toBe(429);
  });
});
