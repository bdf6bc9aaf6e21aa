import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/shared/roles.ts';
import { articlesApi, type TestUser } from '../support/articlesTestClient.ts';
import { disableAccount } from '../support/operatorActions.ts';
import { signUpAs } from '../support/staffAccounts.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { contractDatabases } from '../support/testDatabases.ts';
import { call, sampleArticle, signUpUser, type CallOutcome, type LoadUser } from '../reliability/loadClient.ts';

/**
 * Part of `npm test` (it was in the reliability suite only): who may do what is a contract
 * every change can break, and the matrix runs in seconds on one database (decision 0782).
 *
 * The authorisation matrix: every write endpoint against every kind of caller. The target is
 * always the author's article or account. "disabled" is the author after an operator disabled
 * them (acting on what is theirs); "deleted" is a user who deleted their account and kept a
 * token. Where a write is refused, the target reads back unchanged.
 */

type Actor = 'anonymous' | 'other' | 'author' | 'disabled' | 'deleted';
type Endpoint = 'create article' | 'update article' | 'delete article' | 'accounts:update' | 'accounts:delete';

interface Scene {
  author: LoadUser;
  other: LoadUser;
  gone: LoadUser;
  articleId: string;
}

/** Expected status and, for /identity refusals, the protocol code. */
const matrix: [Endpoint, Actor, number, string?][] = [
  ['create article', 'anonymous', 401],
  ['create article', 'other', 201],
  ['create article', 'author', 201],
  ['create article', 'disabled', 401],
  ['create article', 'deleted', 401],
  ['update article', 'anonymous', 401],
  ['update article', 'other', 403],
  ['update article', 'author', 200],
  ['update article', 'disabled', 401],
  ['update article', 'deleted', 401],
  ['delete article', 'anonymous', 401],
  ['delete article', 'other', 403],
  ['delete article', 'author', 204],
  ['delete article', 'disabled', 401],
  ['delete article', 'deleted', 401],
  // The identity endpoints act on the token's own account; a localId naming someone else is ignored.
  ['accounts:update', 'anonymous', 400, 'INVALID_REQ_TYPE : Unsupported request parameters.'],
  ['accounts:update', 'other', 200],
  ['accounts:update', 'author', 200],
  ['accounts:update', 'disabled', 400, 'USER_DISABLED'],
  ['accounts:update', 'deleted', 400, 'USER_NOT_FOUND'],
  ['accounts:delete', 'anonymous', 400, 'MISSING_ID_TOKEN'],
  ['accounts:delete', 'other', 200],
  ['accounts:delete', 'author', 200],
  ['accounts:delete', 'disabled', 400, 'USER_DISABLED'],
  ['accounts:delete', 'deleted', 400, 'USER_NOT_FOUND'],
];

describe.each(contractDatabases())('authorisation matrix on $dialect', (dialectCase) => {
  let server: TestApp;
  // A deleted account and the token it kept: nothing can change it any more, so every case
  // may share it (a sign-up, a password hash, fewer per case).
  let gone: LoadUser;
  beforeAll(async () => {
    server = await startTestApp(dialectCase, { RATE_LIMIT_SIGNUP_PER_IP: '100000' });
    gone = await signUpUser(server.url, 'gone');
    expect(
      (await call(`${server.url}/identity/v1/accounts:delete?key=k`, { json: { idToken: gone.idToken } })).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function stage(): Promise<Scene> {
    const [author, other] = await Promise.all([signUpUser(server.url, 'author'), signUpUser(server.url, 'other')]);
    const created = await call(`${server.url}/api/articles`, {
      json: sampleArticle('Original'),
      token: author.idToken,
    });
    expect(created.status).toBe(201);
    await call(`${server.url}/identity/v1/accounts:update?key=k`, {
      json: { idToken: author.idToken, displayName: 'Author' },
    });
    return { author, other, gone, articleId: (created.body as { id: string }).id };
  }

  function tokenOf(scene: Scene, actor: Actor): string | undefined {
    if (actor === 'anonymous') return undefined;
    if (actor === 'other') return scene.other.idToken;
    if (actor === 'deleted') return scene.gone.idToken;
    return scene.author.idToken; // author, and the author once disabled
  }

  async function perform(endpoint: Endpoint, scene: Scene, token: string | undefined): Promise<CallOutcome> {
    const article = `${server.url}/api/articles/${scene.articleId}`;
    switch (endpoint) {
      case 'create article':
        return call(`${server.url}/api/articles`, { json: sampleArticle('New'), token });
      case 'update article':
        return call(article, { method: 'PUT', json: sampleArticle('Changed'), token });
      case 'delete article':
        return call(article, { method: 'DELETE', token });
      case 'accounts:update':
        return call(`${server.url}/identity/v1/accounts:update?key=k`, {
          json: { ...(token ? { idToken: token } : {}), localId: scene.author.uid, displayName: 'Changed' },
        });
      case 'accounts:delete':
        return call(`${server.url}/identity/v1/accounts:delete?key=k`, {
          json: { ...(token ? { idToken: token } : {}), localId: scene.author.uid },
        });
    }
  }

  /** What the author's things look like now. */
  async function snapshot(scene: Scene) {
    const article = await call(`${server.url}/api/articles/${scene.articleId}`);
    const author = await server.database.db
      .selectFrom('users')
      .select(['display_name'])
      .where('id', '=', scene.author.uid)
      .executeTakeFirst();
    const articles = await server.database.db.selectFrom('articles').select('id').execute();
    return {
      article: article.status === 200 ? (article.body as { title: string }).title : null,
      authorName: author ? author.display_name : null,
      articleCount: articles.length,
    };
  }

  it.each(matrix)('%s by %s → %i %s', async (endpoint, actor, status, code) => {
    const scene = await stage();
    if (actor === 'disabled') await disableAccount(server, scene.author.email);
    const before = await snapshot(scene);
    const answer = await perform(endpoint, scene, tokenOf(scene, actor));
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    if (code) expect((answer.body as { error: { message: string } }).error.message).toBe(code);
    if (status === 401) expect((answer.body as { status: number }).status).toBe(401);
    const after = await snapshot(scene);

    const succeeded = status < 300;
    const changesAuthorsThings = succeeded && actor === 'author';
    if (!changesAuthorsThings) {
      // The author's article and account are as they were (a create by someone adds one article).
      expect(after.article).toBe(before.article);
      expect(after.authorName).toBe(before.authorName);
      expect(after.articleCount).toBe(before.articleCount + (succeeded && endpoint === 'create article' ? 1 : 0));
    } else if (endpoint === 'update article') {
      expect(after.article).toBe('Changed title');
    } else if (endpoint === 'delete article') {
      expect(after.article).toBeNull();
    } else if (endpoint === 'accounts:update') {
      expect(after.authorName).toBe('Changed');
    } else if (endpoint === 'accounts:delete') {
      expect(after.authorName).toBeNull();
      expect(after.article).toBeNull(); // the author's articles went with the account
    }
    if (succeeded && actor === 'other' && endpoint.startsWith('accounts:')) {
      // The caller's own account was the one changed or deleted.
      const other = await server.database.db
        .selectFrom('users')
        .select('display_name')
        .where('id', '=', scene.other.uid)
        .executeTakeFirst();
      if (endpoint === 'accounts:update') expect(other?.display_name).toBe('Changed');
      else expect(other).toBeUndefined();
    }
  });
});

/**
 * The roles matrix (docs/product.md, Roles): each role against each call the permission table
 * governs. Roles are given the operator's way after sign-up, so every caller's token still
 * says `author`: the answers show the server reads the role from the database. Every case
 * acts on fresh targets.
 */
type RoleActor = 'anonymous' | Role;
type RoleCall =
  | 'create article'
  | 'list members'
  | 'list invitations'
  | 'invite an author'
  | 'invite an editor'
  | 'revoke an author invitation'
  | 'make an author a reader'
  | 'disable an author'
  | 'make an editor an author'
  | 'create a published article'
  | 'create a draft'
  | "publish another's submitted draft"
  | "edit another's article"
  | "delete another's article"
  | "hide another's article"
  | "restore another's hidden article"
  | 'read the review queue'
  | "list another's drafts"
  | 'list every article (Posts)'
  | "list every author's drafts"
  | 'search every title'
  | "read another's draft"
  | 'report an article'
  | 'list open reports'
  | 'dismiss a report'
  | 'hide an article through a report'
  | 'read the audit log'
  | 'change the site settings';

const ROLE_ACTORS: RoleActor[] = ['anonymous', 'reader', 'contributor', 'author', 'editor', 'owner'];
const allowedFrom = (least: Role, ok: number): Record<RoleActor, number> =>
  Object.fromEntries(
    ROLE_ACTORS.map((actor) => [
      actor,
      actor === 'anonymous' ? 401 : ROLES.indexOf(actor) >= ROLES.indexOf(least) ? ok : 403,
    ]),
  ) as Record<RoleActor, number>;

const roleMatrix: Record<RoleCall, Record<RoleActor, number>> = {
  // Contributors' articles are drafts (DESIGN.md §8.2): created, never published.
  'create article': allowedFrom('contributor', 201),
  'list members': allowedFrom('editor', 200),
  'list invitations': allowedFrom('editor', 200),
  'invite an author': allowedFrom('editor', 201),
  'invite an editor': allowedFrom('owner', 201),
  'revoke an author invitation': allowedFrom('editor', 204),
  'make an author a reader': allowedFrom('editor', 200),
  'disable an author': allowedFrom('editor', 200),
  'make an editor an author': allowedFrom('owner', 200),
  // Drafts, review and moderation (DESIGN.md §8.2). An article someone may not see is answered
  // as an unknown one (404), once past the write check that refuses readers anything.
  'create a published article': allowedFrom('author', 201),
  'create a draft': allowedFrom('contributor', 201),
  "publish another's submitted draft": { ...allowedFrom('editor', 200), contributor: 404, author: 404 },
  "edit another's article": allowedFrom('editor', 200),
  "delete another's article": allowedFrom('editor', 204),
  "hide another's article": allowedFrom('editor', 200),
  "restore another's hidden article": { ...allowedFrom('editor', 200), reader: 404, contributor: 404, author: 404 },
  'read the review queue': allowedFrom('editor', 200),
  "list another's drafts": allowedFrom('editor', 200),
  // The /admin Posts list (decision 0820): every author's articles, any status, by title.
  'list every article (Posts)': allowedFrom('editor', 200),
  "list every author's drafts": allowedFrom('editor', 200),
  'search every title': allowedFrom('editor', 200),
  "read another's draft": { ...allowedFrom('editor', 200), anonymous: 404, reader: 404, contributor: 404, author: 404 },
  'report an article': allowedFrom('reader', 201),
  'list open reports': allowedFrom('editor', 200),
  'dismiss a report': allowedFrom('editor', 200),
  'hide an article through a report': allowedFrom('editor', 200),
  'read the audit log': allowedFrom('owner', 200),
  // DESIGN.md §9.6: the footer only, so no other case sees a changed site.
  'change the site settings': allowedFrom('owner', 200),
};

/** A published article by a fresh author, for calls that act on another person's article. */
async function othersArticle(api: ReturnType<typeof articlesApi>, author: TestUser, json: object = {}) {
  const created = await api.create(author.idToken, { ...sampleArticle('Theirs'), ...json });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string; status: string };
}

describe.each(contractDatabases())('roles matrix on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  const callers = new Map<Role, TestUser>();
  let owner: TestUser;

  const member = (role: Role) => signUpAs(server, `A ${role}`, role);

  beforeAll(async () => {
    server = await startTestApp(dialectCase, {
      RATE_LIMIT_SIGNUP_PER_IP: '100000',
      RATE_LIMIT_ARTICLE_CREATE_PER_USER: '100000',
    });
    api = articlesApi(server.url);
    owner = await member('owner');
    for (const role of ROLES) callers.set(role, role === 'owner' ? owner : await member(role));
  });
  afterAll(async () => {
    await server?.close();
  });

  // By an author of its own: nobody in the matrix reports their own article (refused, issue 35 finding 7).
  let reportedAuthor: TestUser | undefined;
  const freshArticle = async () => {
    reportedAuthor ??= await member('author');
    return (await api.create(reportedAuthor.idToken, sampleArticle('Reported'))).body.id as string;
  };
  /** An open report of a fresh article, made by the owner. */
  const freshReport = async () =>
    (
      await api.request('POST', `/articles/${await freshArticle()}/reports`, {
        token: owner.idToken,
        json: { reason: 'Spam' },
      })
    ).body.id as string;

  async function perform(call: RoleCall, token: string | undefined) {
    switch (call) {
      case 'create article':
        return api.create(token, sampleArticle('Matrix'));
      case 'list members':
        return api.request('GET', '/members', { token });
      case 'list invitations':
        return api.request('GET', '/invitations', { token });
      case 'invite an author':
        return api.request('POST', '/invitations', { token, json: { role: 'author' } });
      case 'invite an editor':
        return api.request('POST', '/invitations', { token, json: { role: 'editor' } });
      case 'revoke an author invitation': {
        const made = await api.request('POST', '/invitations', { token: owner.idToken, json: { role: 'author' } });
        return api.request('DELETE', `/invitations/${made.body.id}`, { token });
      }
      case 'make an author a reader':
        return api.request('PATCH', `/members/${(await member('author')).uid}`, { token, json: { role: 'reader' } });
      case 'disable an author':
        return api.request('PATCH', `/members/${(await member('author')).uid}`, { token, json: { disabled: true } });
      case 'make an editor an author':
        return api.request('PATCH', `/members/${(await member('editor')).uid}`, { token, json: { role: 'author' } });
      case 'create a published article':
        return api.create(token, { ...sampleArticle('Out now'), status: 'published' });
      case 'create a draft':
        return api.create(token, { ...sampleArticle('Later'), status: 'draft' });
      case "publish another's submitted draft": {
        const draft = await othersArticle(api, await member('contributor'), { status: 'submitted' });
        return api.update(token, draft.id, { ...sampleArticle('Theirs'), status: 'published' });
      }
      case "edit another's article":
        return api.update(token, (await othersArticle(api, await member('author'))).id, sampleArticle('Edited'));
      case "delete another's article":
        return api.remove(token, (await othersArticle(api, await member('author'))).id);
      case "hide another's article":
        return api.request('POST', `/articles/${(await othersArticle(api, await member('author'))).id}/hide`, {
          token,
          json: { reason: 'Matrix.' },
        });
      case "restore another's hidden article": {
        const article = await othersArticle(api, await member('author'));
        const hidden = await api.request('POST', `/articles/${article.id}/hide`, {
          token: owner.idToken,
          json: { reason: 'Matrix.' },
        });
        expect(hidden.status).toBe(200);
        return api.request('POST', `/articles/${article.id}/restore`, { token });
      }
      case 'read the review queue':
        return api.request('GET', '/articles?status=submitted', { token });
      case "list another's drafts":
        return api.request('GET', `/articles?author=${(await member('contributor')).uid}&status=draft`, { token });
      case 'list every article (Posts)':
        return api.request('GET', '/articles?status=all', { token });
      case "list every author's drafts":
        return api.request('GET', '/articles?status=draft', { token });
      case 'search every title':
        // A title search is private even of published articles: anonymous 401, not the public list.
        return api.request('GET', '/articles?q=Theirs', { token });
      case "read another's draft":
        return api.request('GET', `/articles/${(await othersArticle(api, await member('contributor'))).id}`, { token });
      case 'report an article':
        return api.request('POST', `/articles/${await freshArticle()}/reports`, { token, json: { reason: 'Spam' } });
      case 'list open reports':
        return api.request('GET', '/reports?status=open', { token });
      case 'dismiss a report':
        return api.request('POST', `/reports/${await freshReport()}/resolve`, { token, json: { action: 'dismiss' } });
      case 'hide an article through a report':
        return api.request('POST', `/reports/${await freshReport()}/resolve`, { token, json: { action: 'hide' } });
      case 'read the audit log':
        return api.request('GET', '/audit', { token });
      case 'change the site settings':
        return api.request('PATCH', '/settings', { token, json: { footer: 'Matrix.' } });
    }
  }

  for (const [call, row] of Object.entries(roleMatrix) as [RoleCall, Record<RoleActor, number>][]) {
    it(`${call}: ${ROLE_ACTORS.map((actor) => `${actor} ${row[actor]}`).join(', ')}`, async () => {
      for (const actor of ROLE_ACTORS) {
        const token = actor === 'anonymous' ? undefined : callers.get(actor)!.idToken;
        const answer = await perform(call, token);
        expect(answer.status, `${call} as ${actor}: ${answer.text}`).toBe(row[actor]);
        if (call === 'create article' && answer.status === 201) {
          // Published for those who may publish, a draft for the rest.
          expect(answer.body.status, actor).toBe(actor === 'contributor' ? 'draft' : 'published');
        }
      }
    });
  }

  it('a refused member change leaves the member as they were', async () => {
    const target = await member('editor');
    expect(
      (
        await api.request('PATCH', `/members/${target.uid}`, {
          token: callers.get('editor')!.idToken,
          json: { disabled: true },
        })
      ).status,
    ).toBe(403);
    const listed = await api.request('GET', `/members?q=${encodeURIComponent(target.email)}`, { token: owner.idToken });
    expect(listed.body.members[0]).toMatchObject({ role: 'editor', disabled: false });
  });
});
