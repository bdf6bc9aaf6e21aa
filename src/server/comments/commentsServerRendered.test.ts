import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { commentsClient } from './commentsTestSupport.ts';

// DESIGN.md §9.2: comments are part of the server-rendered article page, readable without JavaScript.
describe.each(contractDatabases())('comments in the article page’s HTML, on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let c: ReturnType<typeof commentsClient>;
  beforeAll(async () => {
    sink = await startSmtpSink();
    // The real build: its server renderer is what this is about.
    server = await startTestApp(dialectCase, { SMTP_URL: sink.url }, { webDist: 'built' });
    c = commentsClient(server, sink);
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('carries the count, the threads, names linking to author pages, dates and "edited"; a new one at once', async () => {
    const author = await c.member('Ann Author');
    const reader = await c.member('Rita <b>Reader</b>', 'reader');
    const id = await c.publish(author, 'Served with comments');
    const top = await c.comment(reader, id, 'First *thought* <script>alert(1)</script>');
    await c.comment(author, id, 'A reply', top);
    expect((await c.edit(reader, top, { body: 'First *thought*, edited <script>alert(1)</script>' })).status).toBe(200);
    const html = await (await fetch(`${server.url}/article/${id}`)).text();
    expect(html).toContain('<h2 id="comments-heading" class="text-2xl font-bold">2 comments</h2>');
    expect(html).toContain(`<article id="comment-${top}"`);
    expect(html).toContain('<p>First <em>thought</em>, edited &lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html).toContain('>Rita &lt;b&gt;Reader&lt;/b&gt;</a>');
    expect(html).toMatch(/href="\/author\/[^"]+"[^>]*>Rita/);
    expect(html).toContain('<span class="comment-edited">edited</span>');
    expect(html).not.toContain('<script>alert(1)');
    // Not again in the data block: the comments' code reads them afresh, as the reader sees them.
    const data = /<script type="application\/json" id="served-screen">(.*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(data)).not.toHaveProperty('comments');
    // A new comment is in the next page served (the cached shell is dropped).
    await c.comment(author, id, 'Another one');
    expect(await (await fetch(`${server.url}/article/${id}`)).text()).toContain('3 comments</h2>');
    // The home page's card says so too.
    const home = await (await fetch(`${server.url}/`)).text();
    expect(home.replaceAll('<!-- -->', '')).toContain('<span>\u00a0·\u00a03 comments</span>');
  });
});
