import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  articlesApi,
  identityCall,
  sampleArticle,
  signUp,
  type TestUser,
} from '../../../test/support/articlesTestClient.ts';
import { databaseUrl, runAdmin } from '../../../test/support/adminRunner.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { markAddressVerified } from '../../../test/support/verifiedAccounts.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

interface Entry {
  actorUid: string | null;
  actorName: string | null;
  actorGone: boolean;
  action: string;
  targetType: string;
  targetId: string;
  targetName: string | null;
  targetGone: boolean;
}

/**
 * The Log's names (issue 39, decision 0821): `GET /api/audit` answers each entry with its
 * actor's name and its target's (an article's title, a member's name, a comment's excerpt, a
 * report by what it reported) as they are now, and says when one has been deleted. An HTTP
 * contract: SQLite only.
 */
describe.each(contractDatabases())('the audit log’s names on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let owner: TestUser;
  let editor: TestUser;
  let author: TestUser;

  const entries = async () => {
    const page = await api.request('GET', '/audit', { token: owner.idToken });
    expect(page.status, page.text).toBe(200);
    return page.body.entries as Entry[];
  };
  const about = async (targetId: string) => (await entries()).filter((entry) => entry.targetId === targetId);
  const rename = async (user: TestUser, displayName: string) => {
    const changed = await identityCall(server.url, 'accounts:update', { idToken: user.idToken, displayName });
    expect(changed.status, changed.text).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { COMMENTS: 'on', RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000' });
    api = articlesApi(server.url);
    owner = await signUp(server.url, 'Olive Owner');
    editor = await signUp(server.url, 'Eddie Editor');
    author = await signUp(server.url, 'Ann Author');
    await setRole(server, owner.email, 'owner');
    await setRole(server, editor.email, 'editor');
  });
  afterAll(() => server?.close());

  it('names the actor and the member acted on, as they are called now', async () => {
    const member = await signUp(server.url, 'Mo Member');
    expect(
      (await api.request('PATCH', `/members/${member.uid}`, { token: editor.idToken, json: { role: 'reader' } }))
        .status,
    ).toBe(200);
    await rename(member, 'Morgan Member');
    const [entry] = await about(member.uid);
    expect(entry).toMatchObject({
      actorUid: editor.uid,
      actorName: 'Eddie Editor',
      actorGone: false,
      action: 'member.role',
      targetName: 'Morgan Member',
      targetGone: false,
    });
  });

  it('names an article by its current title, and says so once it is deleted', async () => {
    const id = (await api.create(author.idToken, sampleArticle('Walking the dog'))).body.id as string;
    const hidden = await api.request('POST', `/articles/${id}/hide`, {
      token: editor.idToken,
      json: { reason: 'Spam' },
    });
    expect(hidden.status).toBe(200);
    expect(await about(id)).toMatchObject([
      { action: 'article.hide', targetName: 'Walking the dog', targetGone: false },
    ]);
    const renamed = await api.update(author.idToken, id, sampleArticle('Walking the cat'));
    expect(renamed.status, renamed.text).toBe(200);
    expect((await about(id))[0]!.targetName).toBe('Walking the cat');
    expect((await api.remove(editor.idToken, id)).status).toBe(204);
    const gone = await about(id);
    expect(gone.map(({ action, targetName, targetGone }) => ({ action, targetName, targetGone }))).toEqual([
      { action: 'article.delete', targetName: null, targetGone: true },
      { action: 'article.hide', targetName: null, targetGone: true },
    ]);
  });

  it('names a comment by an excerpt and a report by what was reported', async () => {
    const id = (await api.create(author.idToken, sampleArticle('A reported piece'))).body.id as string;
    await markAddressVerified(server, editor.uid);
    const long = `Buy   cheap\nwatches ${'now '.repeat(40)}`;
    const comment = await api.request('POST', `/articles/${id}/comments`, {
      token: editor.idToken,
      json: { body: long },
    });
    expect(comment.status, comment.text).toBe(201);
    const hid = await api.request('POST', `/comments/${comment.body.id}/hide`, {
      token: owner.idToken,
      json: { reason: 'Spam' },
    });
    expect(hid.status, hid.text).toBe(200);
    const [commentEntry] = await about(comment.body.id as string);
    expect(commentEntry!.actorName).toBe('Olive Owner');
    expect(commentEntry!.targetName).toMatch(/^Buy cheap watches now now .*…$/);
    expect([...commentEntry!.targetName!]).toHaveLength(80);
    const reader = await signUp(server.url, 'Rita Reader');
    const made = await api.request('POST', `/articles/${id}/reports`, {
      token: reader.idToken,
      json: { reason: 'Rude' },
    });
    expect(made.status, made.text).toBe(201);
    const resolved = await api.request('POST', `/reports/${made.body.id}/resolve`, {
      token: editor.idToken,
      json: { action: 'dismiss' },
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(await about(made.body.id as string)).toMatchObject([
      { action: 'report.resolve', targetType: 'report', targetName: 'A reported piece', targetGone: false },
    ]);
  });

  it('leaves invitations unnamed, and says when the actor’s account is gone', async () => {
    const leaver = await signUp(server.url, 'Lee Leaver');
    await setRole(server, leaver.email, 'editor');
    const made = await api.request('POST', '/invitations', { token: leaver.idToken, json: { role: 'author' } });
    expect(made.status).toBe(201);
    expect(await about(made.body.id as string)).toMatchObject([
      { actorName: 'Lee Leaver', actorGone: false, targetName: null, targetGone: false },
    ]);
    const deleted = await runAdmin(['users', 'delete', leaver.email], {
      DATABASE_URL: databaseUrl(server.config.database),
      DATA_DIR: server.config.dataDir,
    });
    expect(deleted.code).toBe(0);
    expect(await about(made.body.id as string)).toMatchObject([
      { actorUid: leaver.uid, actorName: null, actorGone: true, targetName: null, targetGone: false },
    ]);
    // The operator's own changes have no actor: nothing is gone.
    const [role] = await about(leaver.uid);
    expect(role).toMatchObject({ actorUid: null, actorName: null, actorGone: false, targetGone: true });
  });
});
