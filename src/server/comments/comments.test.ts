import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityCall, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases, storageDatabases } from '../../../test/support/testDatabases.ts';
import { commentsClient, threads } from './commentsTestSupport.ts';

// DESIGN.md §9.2, docs/product.md (Comments).
describe.each(storageDatabases())('comments on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let c: ReturnType<typeof commentsClient>;
  let owner: TestUser;
  let editor: TestUser;
  let author: TestUser;
  let otherAuthor: TestUser;
  let reader: TestUser;
  let contributor: TestUser;
  let unverified: TestUser;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, {
      SMTP_URL: sink.url,
      RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000',
      RATE_LIMIT_COMMENT_PER_USER: '100000',
    });
    c = commentsClient(server, sink);
    owner = await c.member('Olive Owner', 'owner');
    editor = await c.member('Eddie Editor', 'editor');
    author = await c.member('Ann Author');
    otherAuthor = await c.member('Otto Other');
    reader = await c.member('Rita Reader', 'reader');
    contributor = await c.member('Cody Contributor', 'contributor');
    unverified = await c.member('Una Unverified', 'reader', false);
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('takes a comment from any verified account, readers included, and shows it to everyone', async () => {
    const id = await c.publish(author);
    const made = await c.post(reader, id, { body: '  Nice *piece*, see <https://example.com/x>.  ' });
    expect(made.status, made.text).toBe(201);
    expect(made.headers.get('location')).toBe(`/api/comments/${made.body.id}`);
    expect(made.body).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
      articleId: id,
      parentId: null,
      author: { uid: reader.uid, displayName: 'Rita Reader', photoUrl: null, slug: expect.any(String) },
      bodyHtml:
        '<p>Nice <em>piece</em>, see <a href="https://example.com/x" rel="nofollow ugc noopener">https://example.com/x</a>.</p>\n',
      // The Markdown goes back only to its writer (for Edit).
      body: 'Nice *piece*, see <https://example.com/x>.',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      editedAt: null,
      status: 'published',
      replies: [],
    });
    const anonymous = await c.list(undefined, id);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ comments: [{ ...made.body, body: undefined }], nextCursor: null, count: 1 });
    expect(anonymous.body.comments[0]).not.toHaveProperty('body');
    expect((await c.list(reader, id)).body.comments[0].body).toBe('Nice *piece*, see <https://example.com/x>.');
    expect((await c.list(author, id)).body.comments[0]).not.toHaveProperty('body');
    // The article and the list carry the count.
    expect((await c.api.get(id)).body.commentCount).toBe(1);
    const listed = (await c.api.list()).body.articles.find((article: { id: string }) => article.id === id);
    expect(listed.commentCount).toBe(1);
    for (const user of [contributor, otherAuthor, editor, owner, author]) {
      expect((await c.post(user, id, { body: `From ${user.uid}` })).status).toBe(201);
    }
    expect((await c.list(undefined, id)).body.count).toBe(6);
  });

  it('refuses anonymous (401), an unverified address (403 with a sentence) and unpublished articles', async () => {
    const id = await c.publish(author);
    expect((await c.post(undefined, id, { body: 'Hi' })).status).toBe(401);
    const refused = await c.post(unverified, id, { body: 'Hi' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/^Verify your email address to comment/);
    const draft = await c.publish(author, 'Draft', 'draft');
    // Someone who may not see the article: as if it did not exist.
    expect((await c.post(reader, draft, { body: 'Hi' })).status).toBe(404);
    expect((await c.list(reader, draft)).status).toBe(404);
    expect((await c.list(undefined, draft)).status).toBe(404);
    // Its author sees it, but comments are only on published articles.
    expect((await c.post(author, draft, { body: 'Hi' })).status).toBe(409);
    expect((await c.list(author, draft)).status).toBe(200);
    expect((await c.post(reader, 'AAAAAAAAAAAAAAAAAAAA', { body: 'Hi' })).status).toBe(404);
    expect((await c.post(reader, 'not-an-id', { body: 'Hi' })).status).toBe(404);
    expect((await c.list(undefined, 'not-an-id')).status).toBe(404);
  });

  it('wants a body of 1 to 5,000 characters without NUL; a field error each time, never a 5xx', async () => {
    const id = await c.publish(author);
    const refused = async (json: unknown, message: string, field = 'body') => {
      const answer = await c.post(reader, id, json);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.errors).toContainEqual({ field, message });
    };
    await refused({}, 'Write a comment first.');
    await refused({ body: '   \n ' }, 'Write a comment first.');
    await refused({ body: 7 }, 'A comment must be text.');
    await refused({ body: 'x'.repeat(5001) }, 'A comment has at most 5,000 characters.');
    // Refused at the edge for every route (decision 0561), with the field named.
    const unstorable = 'body contains a character that cannot be stored (NUL or a lone surrogate).';
    await refused({ body: 'a\u0000b' }, unstorable);
    await refused({ body: 'bad \ud800 half' }, unstorable);
    await refused({ body: 'Hi', extra: 1 }, 'extra is not a field of this request.', 'extra');
    await refused({ body: 'Hi', parentId: 5 }, 'parentId must be a comment id.', 'parentId');
    for (const raw of ['{"body":', '', '["Hi"]', 'null']) {
      const answer = await c.api.request('POST', `/articles/${id}/comments`, {
        token: reader.idToken,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status, `${JSON.stringify(raw)}: ${answer.text}`).toBe(400);
    }
    // 5,000 characters as people count them (emoji are one each), after trimming.
    expect((await c.post(reader, id, { body: ` ${'😀'.repeat(5000)} ` })).status).toBe(201);
    const edited = await c.edit(reader, await c.comment(reader, id, 'ok'), { body: '' });
    expect(edited.status).toBe(400);
    expect(edited.body.errors).toContainEqual({ field: 'body', message: 'Write a comment first.' });
  });

  it('keeps Markdown to paragraphs, emphasis, code, quotes, lists and links', async () => {
    const id = await c.publish(author);
    const html = async (body: string) => (await c.post(reader, id, { body })).body.bodyHtml as string;
    // No headings, rules or images: a picture's Markdown is at most a link to it.
    expect(await html('# Title\n\n![img](https://example.com/a.png)\n\n---')).toBe(
      '<p># Title</p>\n<p>!<a href="https://example.com/a.png" rel="nofollow ugc noopener">img</a></p>\n<p>---</p>\n',
    );
    expect(await html('<script>alert(1)</script> <b>x</b>')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;x&lt;/b&gt;</p>\n',
    );
    expect(await html('> quoted\n\n- one\n- two\n\n1. first\n\n`code` **strong**')).toBe(
      '<blockquote>\n<p>quoted</p>\n</blockquote>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ol>\n<li>first</li>\n</ol>\n<p><code>code</code> <strong>strong</strong></p>\n',
    );
    expect(await html('[x](javascript:alert(1)) [y](https://example.com)')).toBe(
      '<p>[x](javascript:alert(1)) <a href="https://example.com" rel="nofollow ugc noopener">y</a></p>\n',
    );
    expect(await html('| a | b |\n|---|---|\n| 1 | 2 |')).not.toContain('<table');
  });

  it('threads one level of replies; a reply to a reply joins the thread; another article’s comment is refused', async () => {
    const id = await c.publish(author);
    const elsewhere = await c.publish(author, 'Elsewhere');
    const top = await c.comment(reader, id, 'Top');
    const reply = await c.comment(contributor, id, 'Reply', top);
    const replyToReply = await c.post(author, id, { body: 'Reply to reply', parentId: reply });
    expect(replyToReply.status).toBe(201);
    expect(replyToReply.body.parentId).toBe(top);
    const second = await c.comment(editor, id, 'Second');
    expect(threads((await c.list(undefined, id)).body)).toEqual([
      [top, [reply, replyToReply.body.id]],
      [second, []],
    ]);
    const foreign = await c.post(reader, elsewhere, { body: 'Wrong thread', parentId: top });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([{ field: 'parentId', message: 'That comment is under another article.' }]);
    expect((await c.post(reader, id, { body: 'x', parentId: 'AAAAAAAAAAAAAAAA' })).status).toBe(404);
    expect((await c.post(reader, id, { body: 'x', parentId: 'short' })).status).toBe(404);
  });

  it('pages top-level comments 25 at a time, oldest first, with all their replies; a made-up cursor is 400', async () => {
    const id = await c.publish(author);
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) ids.push(await c.comment(reader, id, `Comment ${i}`));
    const replies = [await c.comment(editor, id, 'r1', ids[0]), await c.comment(editor, id, 'r2', ids[26])];
    const first = await c.list(undefined, id);
    expect(first.body.comments.map((comment: { id: string }) => comment.id)).toEqual(ids.slice(0, 25));
    expect(first.body.comments[0].replies.map((r: { id: string }) => r.id)).toEqual([replies[0]]);
    expect(first.body.count).toBe(29);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await c.list(reader, id, `?cursor=${first.body.nextCursor}`);
    expect(threads(second.body)).toEqual([
      [ids[25], []],
      [ids[26], [replies[1]]],
    ]);
    expect(second.body.nextCursor).toBeNull();
    expect((await c.list(undefined, id, '?cursor=nonsense!')).status).toBe(400);
    expect((await c.list(undefined, id, '?cursor=abc&x=1')).status).toBe(400);
    expect((await c.list(undefined, id, '?cursor=W10')).status).toBe(400);
  });

  it('lets the writer edit (editedAt) and nobody else; unknown ids are 404', async () => {
    const id = await c.publish(author);
    const comment = await c.comment(reader, id, 'Frist');
    for (const user of [author, editor, owner, contributor]) {
      expect((await c.edit(user, comment, { body: 'Hijacked' })).status).toBe(403);
    }
    expect((await c.edit(undefined, comment, { body: 'Anon' })).status).toBe(401);
    const edited = await c.edit(reader, comment, { body: 'First' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: comment, bodyHtml: '<p>First</p>\n', editedAt: expect.any(String) });
    expect((await c.edit(reader, 'AAAAAAAAAAAAAAAA', { body: 'x' })).status).toBe(404);
    expect((await c.remove(reader, 'AAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await c.act(editor, 'AAAAAAAAAAAAAAAA', 'approve')).status).toBe(404);
    expect((await c.report(reader, 'AAAAAAAAAAAAAAAA')).status).toBe(404);
  });

  it('deletes: by the writer, the article’s author or an editor; a comment with replies stays as deleted', async () => {
    const id = await c.publish(author);
    const top = await c.comment(reader, id, 'Top');
    const reply = await c.comment(contributor, id, 'Reply', top);
    const lone = await c.comment(contributor, id, 'Lone');
    for (const user of [otherAuthor, reader]) expect((await c.remove(user, lone)).status).toBe(403);
    expect((await c.remove(undefined, lone)).status).toBe(401);
    expect((await c.remove(reader, top)).status).toBe(204);
    const page = (await c.list(undefined, id)).body;
    expect(page.comments[0]).toMatchObject({
      id: top,
      author: null,
      bodyHtml: '',
      status: 'deleted',
      replies: [expect.objectContaining({ id: reply })],
    });
    expect(page.count).toBe(2);
    // Deleted is deleted: no edit, no second delete, no reply to it.
    expect((await c.edit(reader, top, { body: 'Back' })).status).toBe(404);
    expect((await c.remove(reader, top)).status).toBe(204 - 204 + 404);
    expect((await c.post(reader, id, { body: 'x', parentId: top })).status).toBe(404);
    // The article's author deletes another's comment: audited. The last reply gone, the deleted top goes too.
    expect((await c.remove(author, reply)).status).toBe(204);
    expect((await c.remove(editor, lone)).status).toBe(204);
    expect((await c.list(undefined, id)).body).toEqual({ comments: [], nextCursor: null, count: 0 });
    const audit = (await c.api.request('GET', '/audit', { token: owner.idToken })).body.entries as {
      action: string;
      targetId: string;
      actorUid: string;
    }[];
    expect(audit).toContainEqual(
      expect.objectContaining({ action: 'comment.delete', targetId: reply, actorUid: author.uid }),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({ action: 'comment.delete', targetId: lone, actorUid: editor.uid }),
    );
    expect(audit.filter((entry) => entry.targetId === top)).toEqual([]);
  });

  it('hides and restores: editors and the article’s author only; hidden ones are staff’s to see', async () => {
    const id = await c.publish(author);
    const comment = await c.comment(reader, id, 'Rude words');
    // The authorisation matrix of hide, restore and approve.
    for (const user of [reader, contributor, otherAuthor]) {
      for (const action of ['hide', 'restore', 'approve'] as const) {
        expect((await c.act(user, comment, action)).status, `${action} by ${user.uid}`).toBe(403);
      }
    }
    expect((await c.act(undefined, comment, 'hide')).status).toBe(401);
    expect((await c.act(editor, comment, 'hide', {})).status).toBe(400);
    expect((await c.act(editor, comment, 'hide', { reason: 'x'.repeat(501) })).status).toBe(400);
    // Nothing to approve or restore on a published comment.
    expect((await c.act(editor, comment, 'approve')).status).toBe(409);
    expect((await c.act(editor, comment, 'restore')).status).toBe(409);
    const hidden = await c.act(author, comment, 'hide', { reason: 'Be kind' });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ status: 'hidden', hiddenReason: 'Be kind' });
    expect((await c.list(undefined, id)).body).toMatchObject({ comments: [], count: 0 });
    expect((await c.list(otherAuthor, id)).body.comments).toEqual([]);
    for (const staff of [author, editor]) {
      expect((await c.list(staff, id)).body.comments).toEqual([
        expect.objectContaining({ id: comment, status: 'hidden' }),
      ]);
    }
    // Others cannot find it at all now.
    expect((await c.act(otherAuthor, comment, 'restore')).status).toBe(404);
    expect((await c.report(otherAuthor, comment)).status).toBe(404);
    expect((await c.act(editor, comment, 'restore')).status).toBe(200);
    expect((await c.list(undefined, id)).body.count).toBe(1);
    const audit = (await c.api.request('GET', '/audit', { token: owner.idToken })).body.entries as {
      action: string;
      targetId: string;
    }[];
    expect(
      audit
        .filter((entry) => entry.targetId === comment)
        .map((entry) => entry.action)
        .sort(),
    ).toEqual(['comment.hide', 'comment.restore']);
  });

  it('takes reports of comments into the reports queue; resolving with hide hides the comment', async () => {
    const id = await c.publish(author);
    const comment = await c.comment(contributor, id, 'Buy pills');
    const made = await c.report(reader, comment, 'Spam');
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ targetType: 'comment', articleId: id, commentId: comment, status: 'open' });
    expect((await c.report(reader, comment, 'Again')).status).toBe(409);
    expect((await c.report(undefined, comment)).status).toBe(401);
    expect((await c.report(reader, comment, '')).status).toBe(400);
    // Reporting the article itself is another report.
    const ofArticle = await c.api.request('POST', `/articles/${id}/reports`, {
      token: reader.idToken,
      json: { reason: 'Meh' },
    });
    expect(ofArticle.status).toBe(201);
    expect(ofArticle.body).toMatchObject({ targetType: 'article', commentId: null });
    const second = await c.report(otherAuthor, comment, 'Spam too');
    const queue = (await c.api.request('GET', '/reports', { token: editor.idToken })).body.reports as { id: string }[];
    expect(queue).toContainEqual(
      expect.objectContaining({ id: made.body.id, targetType: 'comment', commentId: comment }),
    );
    const resolved = await c.api.request('POST', `/reports/${made.body.id}/resolve`, {
      token: editor.idToken,
      json: { action: 'hide' },
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect([...resolved.body.closed].sort()).toEqual([made.body.id, second.body.id].sort());
    expect((await c.list(undefined, id)).body.comments).toEqual([]);
    expect((await c.list(editor, id)).body.comments[0]).toMatchObject({ status: 'hidden', hiddenReason: 'Spam' });
    // The article stays, and so does the report of the article.
    expect((await c.api.get(id)).status).toBe(200);
    const open = (await c.api.request('GET', '/reports', { token: editor.idToken })).body.reports as { id: string }[];
    expect(open.map((report) => report.id)).toContain(ofArticle.body.id);
  });

  it('hides the comments of a hidden or unpublished article from everyone but staff; deleting it deletes them', async () => {
    const id = await c.publish(author);
    const comment = await c.comment(reader, id, 'Soon hidden');
    expect(
      (await c.api.request('POST', `/articles/${id}/hide`, { token: editor.idToken, json: { reason: 'x' } })).status,
    ).toBe(200);
    expect((await c.list(undefined, id)).status).toBe(404);
    expect((await c.list(reader, id)).status).toBe(404);
    expect((await c.edit(reader, comment, { body: 'x' })).status).toBe(404);
    expect((await c.list(author, id)).body.comments.map((x: { id: string }) => x.id)).toEqual([comment]);
    expect((await c.api.request('POST', `/articles/${id}/restore`, { token: editor.idToken })).status).toBe(200);
    expect((await c.list(undefined, id)).body.count).toBe(1);
    const draft = await c.api.update(author.idToken, id, {
      ...{ image: 'https://images.example.com/photo.jpg', title: 'T', description: 'D' },
      status: 'draft',
    });
    expect(draft.status).toBe(200);
    expect((await c.list(undefined, id)).status).toBe(404);
    expect((await c.api.remove(author.idToken, id)).status).toBe(204);
    expect((await c.list(author, id)).status).toBe(404);
    expect((await c.remove(reader, comment)).status).toBe(404);
  });

  it('deletes an account’s comments with it, keeping replied-to ones as deleted', async () => {
    const leaver = await c.member('Lou Leaver', 'reader');
    const id = await c.publish(author);
    const replied = await c.comment(leaver, id, 'Replied to');
    const reply = await c.comment(reader, id, 'A reply', replied);
    await c.comment(leaver, id, 'Alone');
    await c.comment(leaver, id, 'My own reply', replied);
    expect((await identityCall(server.url, 'accounts:delete', { idToken: leaver.idToken })).status).toBe(200);
    const page = (await c.list(undefined, id)).body;
    expect(threads(page)).toEqual([[replied, [reply]]]);
    expect(page.comments[0]).toMatchObject({ status: 'deleted', author: null, bodyHtml: '' });
    expect(page.count).toBe(1);
  });

  it('shows a new comment to anonymous readers at once (the read cache is emptied by it)', async () => {
    const id = await c.publish(author);
    expect((await c.list(undefined, id)).body.count).toBe(0);
    const page = await server.app.inject({ method: 'GET', url: `/article/${id}` });
    expect(page.statusCode).toBe(200);
    await c.comment(reader, id, 'Fresh');
    expect((await c.list(undefined, id)).body.count).toBe(1);
    expect((await c.api.get(id)).body.commentCount).toBe(1);
    const first = await c.list(undefined, id);
    const again = await c.list(undefined, id, '');
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  it('keeps the profile’s two notification switches', async () => {
    const path = '/comments/notifications';
    expect((await c.api.request('GET', path)).status).toBe(401);
    expect((await c.api.request('GET', path, { token: reader.idToken })).body).toEqual({
      commentsOnMyArticles: true,
      repliesToMyComments: true,
    });
    const changed = await c.api.request('PUT', path, { token: reader.idToken, json: { repliesToMyComments: false } });
    expect(changed.body).toEqual({ commentsOnMyArticles: true, repliesToMyComments: false });
    expect(
      (await c.api.request('PUT', path, { token: reader.idToken, json: { repliesToMyComments: 'no' } })).status,
    ).toBe(400);
    expect((await c.api.request('GET', path, { token: reader.idToken })).body.repliesToMyComments).toBe(false);
  });
});

describe.each(contractDatabases())('COMMENTS=approval and the rate limit on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  let c: ReturnType<typeof commentsClient>;
  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, {
      SMTP_URL: sink.url,
      COMMENTS: 'approval',
      RATE_LIMIT_COMMENT_PER_USER: '3',
    });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('makes comments wait; the writer and staff see them, others and the count do not; approval publishes', async () => {
    c = commentsClient(server, sink);
    const author = await c.member('Ann Author');
    const editor = await c.member('Eddie Editor', 'editor');
    const writer = await c.member('Willa Writer', 'reader');
    const other = await c.member('Oscar Other', 'reader');
    const id = await c.publish(author);
    const made = await c.post(writer, id, { body: 'Please approve' });
    expect(made.body.status).toBe('pending');
    expect((await c.list(undefined, id)).body).toEqual({ comments: [], nextCursor: null, count: 0 });
    expect((await c.list(other, id)).body.comments).toEqual([]);
    expect((await c.list(writer, id)).body.comments).toEqual([
      expect.objectContaining({ id: made.body.id, status: 'pending' }),
    ]);
    expect((await c.list(author, id)).body.comments).toHaveLength(1);
    // The queue is editors'.
    expect((await c.api.request('GET', '/comments/pending', { token: author.idToken })).status).toBe(403);
    const queue = await c.api.request('GET', '/comments/pending', { token: editor.idToken });
    expect(queue.body.comments).toContainEqual(
      expect.objectContaining({ id: made.body.id, articleTitle: 'Commented article' }),
    );
    // The article's author approves; the writer may edit it meanwhile.
    expect((await c.edit(writer, made.body.id, { body: 'Please approve, edited' })).status).toBe(200);
    expect((await c.act(other, made.body.id, 'approve')).status).toBe(404);
    const approved = await c.act(author, made.body.id, 'approve');
    expect(approved.body.status).toBe('published');
    expect((await c.list(undefined, id)).body.count).toBe(1);
    // The author's own comment needs no approval.
    expect((await c.post(author, id, { body: 'Thanks' })).body.status).toBe('published');
    // Three comments per ten minutes: the writer has made one.
    expect((await c.post(writer, id, { body: '2' })).status).toBe(201);
    expect((await c.post(writer, id, { body: '3' })).status).toBe(201);
    const limited = await c.post(writer, id, { body: '4' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe.each(contractDatabases())('COMMENTS=off on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;
  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, { SMTP_URL: sink.url, COMMENTS: 'off' });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('answers 404 everywhere', async () => {
    const c = commentsClient(server, sink);
    const author = await c.member('Ann Author');
    const id = await c.publish(author);
    expect((await c.list(undefined, id)).status).toBe(404);
    expect((await c.post(author, id, { body: 'Hi' })).status).toBe(404);
    expect((await c.edit(author, 'AAAAAAAAAAAAAAAA', { body: 'Hi' })).status).toBe(404);
    expect((await c.report(author, 'AAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await c.api.get(id)).body.commentCount).toBeUndefined();
  });
});
