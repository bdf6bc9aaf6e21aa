import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../../test/support/articlesTestClient.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { commentsClient } from './commentsTestSupport.ts';

// DESIGN.md §9.2 (mail) and §9.3 (one-click unsubscribe, RFC 8058), against a real SMTP server.
describe.each(contractDatabases())('comment mail and unsubscribe on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let c: ReturnType<typeof commentsClient>;
  let author: TestUser;
  let commenter: TestUser;
  let replier: TestUser;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, {
      SMTP_URL: sink.url,
      SITE_TITLE: 'The Quill',
      PUBLIC_URL: 'https://blog.example.com',
    });
    c = commentsClient(server, sink);
    author = await c.member('Ann Author');
    commenter = await c.member('Cora Commenter', 'reader');
    replier = await c.member('Ray Replier', 'reader');
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  /** Mail that reached the sink after `after`, to `user`. */
  const mailsTo = (user: TestUser, after: number) =>
    sink.messages.slice(after).filter((mail) => mail.to.includes(user.email));
  /** Lets background mail arrive: the API answers before SMTP is done. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

  it('mails the article’s author of a new comment, with the site, a link and one-click unsubscribe headers', async () => {
    const id = await c.publish(author, 'Mailed article');
    const before = sink.messages.length;
    const comment = await c.comment(commenter, id, 'Lovely **work**.\nSecond line');
    const mail = await sink.waitForMail(author.email, { after: before, subject: /New comment/ });
    expect(mail.subject).toBe('New comment on "Mailed article" on The Quill');
    expect(mail.text).toContain('Cora Commenter commented on your article "Mailed article":');
    expect(mail.text).toContain('> Lovely **work**.\n> Second line');
    expect(mail.text).toContain(`Read it on The Quill: https://blog.example.com/article/${id}#comment-${comment}`);
    const unsubscribe = /^<(https:\/\/blog\.example\.com\/unsubscribe\?token=([A-Za-z0-9_-]{43}))>$/.exec(
      mail.headers['list-unsubscribe'] ?? '',
    );
    expect(unsubscribe, mail.headers['list-unsubscribe']).not.toBeNull();
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain(unsubscribe![1]);
    expect(mail.html).toContain(`href="${unsubscribe![1]}"`);
    // The commenter hears nothing of their own comment.
    await settle();
    expect(mailsTo(commenter, before)).toEqual([]);
  });

  it('mails a commenter of a reply (once), never anyone of their own comment or reply', async () => {
    const id = await c.publish(author, 'Replies mailed');
    const top = await c.comment(commenter, id, 'First!');
    await settle();
    const before = sink.messages.length;
    await c.comment(replier, id, 'A reply to you', top);
    const reply = await sink.waitForMail(commenter.email, { after: before, subject: /replied/ });
    expect(reply.subject).toBe('Ray Replier replied to your comment on The Quill');
    expect(reply.text).toContain('Ray Replier replied to your comment on "Replies mailed":');
    expect(reply.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    await sink.waitForMail(author.email, { after: before, subject: /New comment/ });
    // Replying in one's own thread, or the author replying on their own article: no mail to oneself.
    await settle();
    const quiet = sink.messages.length;
    await c.comment(commenter, id, 'Answering myself', top);
    // The article's author hears of it; once that mail is in, the commenter's would be too.
    await sink.waitForMail(author.email, { after: quiet, subject: /New comment/ });
    await settle();
    expect(mailsTo(commenter, quiet)).toEqual([]);
    const authorAnswers = sink.messages.length;
    await c.comment(author, id, 'Thanks all', top);
    await sink.waitForMail(commenter.email, { after: authorAnswers, subject: /replied/ });
    await settle();
    expect(mailsTo(author, authorAnswers)).toEqual([]);
  });

  it('unsubscribes with one POST and no cookie; a GET only shows the button; a bad token is 404', async () => {
    const id = await c.publish(author, 'Unsubscribing');
    const before = sink.messages.length;
    await c.comment(commenter, id, 'Hello');
    const mail = await sink.waitForMail(author.email, { after: before, subject: /New comment/ });
    const url = new URL(/<(.+)>/.exec(mail.headers['list-unsubscribe']!)![1]!);
    const local = `${url.pathname}${url.search}`;
    const page = await server.app.inject({ method: 'GET', url: local });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(`<form method="post" action="${local}">`);
    expect(page.body.match(/<button/g)).toHaveLength(1);
    // The GET changed nothing.
    const settings = () =>
      c.api.request('GET', '/comments/notifications', { token: author.idToken }).then((answer) => answer.body);
    expect((await settings()).commentsOnMyArticles).toBe(true);
    const posted = await server.app.inject({
      method: 'POST',
      url: local,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(posted.statusCode).toBe(200);
    expect(posted.body).toContain('You are unsubscribed');
    expect(posted.body).toContain('Your profile can turn it back on.');
    expect(await settings()).toEqual({ commentsOnMyArticles: false, repliesToMyComments: true });
    // Again: still fine (a mail client may retry).
    const multipart = await server.app.inject({
      method: 'POST',
      url: local,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
    });
    expect(multipart.statusCode).toBe(200);
    const quiet = sink.messages.length;
    await c.comment(replier, id, 'No mail for this one');
    await settle();
    expect(mailsTo(author, quiet)).toEqual([]);
    for (const token of ['nope', 'A'.repeat(43), '']) {
      expect((await server.app.inject({ method: 'POST', url: `/unsubscribe?token=${token}` })).statusCode).toBe(404);
      expect((await server.app.inject({ method: 'GET', url: `/unsubscribe?token=${token}` })).statusCode).toBe(404);
    }
    // The profile's switch turns it back on.
    await c.api.request('PUT', '/comments/notifications', {
      token: author.idToken,
      json: { commentsOnMyArticles: true },
    });
    const back = sink.messages.length;
    await c.comment(replier, id, 'Mail again');
    await sink.waitForMail(author.email, { after: back, subject: /New comment/ });
  });

  it('stores only a hash of each token', async () => {
    const id = await c.publish(author, 'Hashed tokens');
    const before = sink.messages.length;
    await c.comment(commenter, id, 'Hash me');
    const mail = await sink.waitForMail(author.email, { after: before, subject: /New comment/ });
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.headers['list-unsubscribe']!)![1]!;
    const rows = await server.database.db.selectFrom('unsubscribe_tokens').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.token_hash === token)).toBe(false);
  });
});
