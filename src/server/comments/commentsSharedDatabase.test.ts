import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi } from '../../../test/support/articlesTestClient.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startSecondServer, type SecondServer } from '../../../test/support/secondServer.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { commentsClient } from './commentsTestSupport.ts';

// Two servers on one database, as two processes: a comment written through one shows through
// the other at once (the comments move the read version, migration 0600), in the API, in the
// article's count and in the page's HTML, never a stale cached answer.
describe.each(storageDatabases())('comments on two servers sharing one database on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let first: TestApp;
  let second: SecondServer;

  beforeAll(async () => {
    sink = await startSmtpSink();
    first = await startTestApp(dialectCase, { SMTP_URL: sink.url });
    second = await startSecondServer(first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await sink?.close();
  });

  it('shows a comment written, edited, hidden and deleted through the other server at once', async () => {
    const c = commentsClient(first, sink);
    const author = await c.member('Ann Author');
    const reader = await c.member('Rita Reader', 'reader');
    const id = await c.publish(author);
    const other = articlesApi(second.url);
    const seen = async () => (await other.request('GET', `/articles/${id}/comments`)).body;
    // Read (and cached) through the second server first.
    expect((await seen()).count).toBe(0);
    expect((await other.get(id)).body.commentCount).toBeUndefined();
    const comment = await c.comment(reader, id, 'Hello from one process');
    expect((await seen()).comments.map((x: { id: string }) => x.id)).toEqual([comment]);
    expect((await other.get(id)).body.commentCount).toBe(1);
    expect((await c.edit(reader, comment, { body: 'Edited elsewhere' })).status).toBe(200);
    expect((await seen()).comments[0].bodyHtml).toBe('<p>Edited elsewhere</p>\n');
    expect((await c.act(author, comment, 'hide')).status).toBe(200);
    expect((await seen()).count).toBe(0);
    expect((await c.act(author, comment, 'restore')).status).toBe(200);
    expect((await seen()).count).toBe(1);
    expect((await c.remove(reader, comment)).status).toBe(204);
    expect(await seen()).toEqual({ comments: [], nextCursor: null, count: 0 });
  });
});
