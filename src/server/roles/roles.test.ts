import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  articlesApi,
  identityCall,
  sampleArticle,
  signUp,
  type TestUser,
} from '../../../test/support/articlesTestClient.ts';
import { identityClient, protocolError, uniqueEmail } from '../../../test/support/identityTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { staffAccounts } from '../../../test/support/staffAccounts.ts';

const DAY = 24 * 60 * 60 * 1000;
const codeOf = (url: string) => new URL(url).searchParams.get('invite')!;

// docs/product.md, Roles; docs/architecture.md, Invitations and members APIs.
describe.each(storageDatabases())('roles, invitations and members on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let client: ReturnType<typeof identityClient>;
  let owner: TestUser;
  let editor: TestUser;
  let author: TestUser;
  let clockOffset = 0;

  const as = (user: TestUser | undefined) => ({
    invite: (json: unknown) => api.request('POST', '/invitations', { token: user?.idToken, json }),
    invitations: () => api.request('GET', '/invitations', { token: user?.idToken }),
    revoke: (id: string) => api.request('DELETE', `/invitations/${id}`, { token: user?.idToken }),
    members: (query = '') => api.request('GET', `/members${query}`, { token: user?.idToken }),
    change: (uid: string, json: unknown) => api.request('PATCH', `/members/${uid}`, { token: user?.idToken, json }),
  });
  const check = (code: string) => api.request('POST', '/invitations/check', { json: { code } });
  /** A fresh ID token: the role claim is as of the token's issue. */
  const signIn = async (user: TestUser) => {
    const answer = await client.signIn(user.email, user.password);
    expect(answer.status).toBe(200);
    user.idToken = answer.body.idToken;
    return answer.body as { idToken: string; refreshToken: string };
  };
  const userCount = async () =>
    Number(
      (
        await server.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    server = await startTestApp(
      dialectCase,
      { PUBLIC_URL: 'https://blog.example', RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000' },
      { clock: () => Date.now() + clockOffset },
    );
    api = articlesApi(server.url);
    client = identityClient(server.url);
    ({ owner, editor, author } = await staffAccounts(server));
  });
  afterAll(() => server?.close());

  it('shows the role as a custom claim: the ID token’s role and lookup’s customAttributes', async () => {
    expect(decodeJwt(author.idToken).role).toBe('author');
    const looked = await client.lookup(author.idToken);
    expect(looked.body.users[0].customAttributes).toBe('{"role":"author"}');
    // The token made before the operator's change still says author; the next one says owner.
    expect(decodeJwt(owner.idToken).role).toBe('author');
    await signIn(owner);
    await signIn(editor);
    expect(decodeJwt(owner.idToken).role).toBe('owner');
    expect((await client.lookup(editor.idToken)).body.users[0].customAttributes).toBe('{"role":"editor"}');
  });

  it('makes a single-use invitation that signs up an account with its role, hashed at rest', async () => {
    const made = await as(owner).invite({ role: 'editor' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ role: 'editor', email: null });
    expect(made.body.url).toMatch(/^https:\/\/blog\.example\/signup\?invite=[A-Za-z0-9_-]{43}$/);
    const expiresIn = Date.parse(made.body.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(7 * DAY - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(7 * DAY + 60_000);
    const code = codeOf(made.body.url);
    const rows = await server.database.db.selectFrom('invitations').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(code);

    expect((await check(code)).body).toEqual({
      valid: true,
      role: 'editor',
      forAddress: false,
      expiresAt: made.body.expiresAt,
    });
    const email = uniqueEmail('invited');
    const joined = await client.signUp(email, 'secret-1', { inviteCode: code });
    expect(joined.status).toBe(200);
    expect(decodeJwt(joined.body.idToken).role).toBe('editor');

    // Used up: a second sign-up with it creates nothing.
    const before = await userCount();
    const again = await client.signUp(uniqueEmail('late'), 'secret-1', { inviteCode: code });
    expect(again.body).toEqual(protocolError('ADMIN_ONLY_OPERATION : INVITATION_USED'));
    expect(await userCount()).toBe(before);
    expect((await check(code)).body).toEqual({ valid: false, reason: 'INVITATION_USED' });
    expect((await as(owner).invitations()).body.invitations.map((i: { id: string }) => i.id)).not.toContain(
      made.body.id,
    );
  });

  it('lets exactly one of two concurrent sign-ups use an invitation', async () => {
    const code = codeOf((await as(owner).invite({ role: 'author' })).body.url);
    const before = await userCount();
    const answers = await Promise.all(
      [uniqueEmail('racer'), uniqueEmail('racer')].map((email) =>
        client.signUp(email, 'secret-1', { inviteCode: code }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body).toEqual(
      protocolError('ADMIN_ONLY_OPERATION : INVITATION_USED'),
    );
    expect(await userCount()).toBe(before + 1);
  });

  it('binds an invitation to an address when it names one', async () => {
    const email = uniqueEmail('bound');
    const made = await as(editor).invite({ role: 'contributor', email: email.toUpperCase() });
    expect(made.status).toBe(201);
    expect(made.body.email).toBe(email);
    const code = codeOf(made.body.url);
    expect((await client.signUp(uniqueEmail('other'), 'secret-1', { inviteCode: code })).body).toEqual(
      protocolError('ADMIN_ONLY_OPERATION : INVITATION_OTHER_ADDRESS'),
    );
    // Whoever holds the link and types the address only reads until the address is claimed
    // (addressClaims.test.ts follows the claim through).
    const joined = await client.signUp(email, 'secret-1', { inviteCode: code });
    expect(decodeJwt(joined.body.idToken).role).toBe('reader');
  });

  it('revokes a pending invitation, and an expired one no longer works', async () => {
    const made = await as(owner).invite({ role: 'reader' });
    const listed = await as(editor).invitations();
    expect(listed.status).toBe(200);
    expect(listed.body.invitations).toContainEqual({
      id: made.body.id,
      role: 'reader',
      email: null,
      createdAt: expect.any(String),
      expiresAt: made.body.expiresAt,
    });
    expect((await as(owner).revoke(made.body.id)).status).toBe(204);
    expect((await as(owner).revoke(made.body.id)).status).toBe(404);
    const code = codeOf(made.body.url);
    expect((await check(code)).body).toEqual({ valid: false, reason: 'INVITATION_REVOKED' });
    expect((await client.signUp(uniqueEmail(), 'secret-1', { inviteCode: code })).body).toEqual(
      protocolError('ADMIN_ONLY_OPERATION : INVITATION_REVOKED'),
    );

    const later = codeOf((await as(owner).invite({ role: 'reader' })).body.url);
    clockOffset = 7 * DAY + 1000;
    try {
      expect((await check(later)).body).toEqual({ valid: false, reason: 'INVITATION_EXPIRED' });
      expect((await client.signUp(uniqueEmail(), 'secret-1', { inviteCode: later })).body).toEqual(
        protocolError('ADMIN_ONLY_OPERATION : INVITATION_EXPIRED'),
      );
    } finally {
      clockOffset = 0;
    }
    expect((await check('not-a-code')).body).toEqual({ valid: false, reason: 'INVITATION_INVALID' });
  });

  it('holds invitations to the permission table, and refuses bad bodies with field errors', async () => {
    expect((await as(editor).invite({ role: 'editor' })).status).toBe(403);
    expect((await as(editor).invite({ role: 'author' })).status).toBe(201);
    expect((await as(author).invite({ role: 'reader' })).status).toBe(403);
    expect((await as(author).invitations()).status).toBe(403);
    expect((await as(undefined).invitations()).status).toBe(401);
    const ownersOnly = await as(owner).invite({ role: 'owner' });
    expect(ownersOnly.status).toBe(201);
    expect((await as(editor).revoke(ownersOnly.body.id)).status).toBe(403);

    const unknownRole = await as(owner).invite({ role: 'admin' });
    expect(unknownRole.status).toBe(400);
    expect(unknownRole.body.errors).toEqual([{ field: 'role', message: expect.stringContaining('reader') }]);
    const badEmail = await as(owner).invite({ role: 'reader', email: 'nope' });
    expect(badEmail.body.errors).toEqual([{ field: 'email', message: 'That is not an email address.' }]);
    const extra = await as(owner).invite({ role: 'reader', uses: 5 });
    expect(extra.body.errors).toEqual([{ field: 'uses', message: 'uses is not a field of this request.' }]);
  });

  it('lists members with their roles and article counts, searches and pages', async () => {
    const a = await api.create(author.idToken, sampleArticle('Counted one'));
    expect(a.status).toBe(201);
    expect((await api.create(author.idToken, sampleArticle('Counted two'))).status).toBe(201);
    const found = await as(editor).members('?q=ANN%20auth');
    expect(found.status).toBe(200);
    expect(found.body).toEqual({
      members: [
        {
          uid: author.uid,
          displayName: 'Ann Author',
          email: author.email,
          role: 'author',
          disabled: false,
          emailVerified: false,
          articleCount: 2,
          createdAt: expect.any(String),
        },
      ],
      nextCursor: null,
    });
    expect((await as(editor).members(`?q=${encodeURIComponent(owner.email)}`)).body.members[0].role).toBe('owner');
    // LIKE's wildcards are searched for as themselves.
    expect((await as(editor).members('?q=%25')).body.members).toEqual([]);

    // More than a page: rows written straight in, as the paging is all that is under test.
    const now = Date.now();
    await server.database.db
      .insertInto('users')
      .values(
        Array.from({ length: 55 }, (_, index) => ({
          id: `paged-${String(index).padStart(2, '0')}`,
          email: `paged-${index}@example.com`,
          password_hash: 'x',
          display_name: `Paged ${index}`,
          photo_url: null,
          email_verified: 0,
          disabled: 0,
          created_at: now + index,
          last_login_at: null,
          password_updated_at: now,
          role: 'reader' as const,
          valid_since: now,
        })),
      )
      .execute();
    const first = await as(owner).members('?q=paged-');
    expect(first.body.members).toHaveLength(50);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await as(owner).members(`?q=paged-&cursor=${first.body.nextCursor}`);
    expect(second.body.members.map((m: { uid: string }) => m.uid)).toEqual(
      ['50', '51', '52', '53', '54'].map((n) => `paged-${n}`),
    );
    expect(second.body.nextCursor).toBeNull();
    expect((await as(owner).members('?cursor=made-up')).status).toBe(400);
    expect((await as(author).members()).status).toBe(403);
  });

  it('changes roles under the permission table, at once, and keeps the last owner', async () => {
    const member = await signUp(server.url, 'Mo Member');
    // Editors: up to author, over readers, contributors and authors only.
    expect((await as(editor).change(member.uid, { role: 'editor' })).status).toBe(403);
    expect((await as(editor).change(owner.uid, { role: 'reader' })).status).toBe(403);
    expect((await as(editor).change(editor.uid, { disabled: true })).status).toBe(403);
    const demoted = await as(editor).change(member.uid, { role: 'reader' });
    expect(demoted.status).toBe(200);
    expect(demoted.body).toMatchObject({ uid: member.uid, role: 'reader', disabled: false, articleCount: 0 });
    // At once, though the member's token still says author: readers write no articles.
    expect(decodeJwt(member.idToken).role).toBe('author');
    const refused = await api.create(member.idToken, sampleArticle('Not allowed'));
    expect(refused.status).toBe(403);
    const own = await api.create(author.idToken, sampleArticle('Someone else’s'));
    expect((await api.update(member.idToken, own.body.id, sampleArticle('x'))).status).toBe(403);
    expect((await api.remove(member.idToken, own.body.id)).status).toBe(403);
    expect(decodeJwt((await signIn(member)).idToken).role).toBe('reader');

    const unknown = await as(owner).change(member.uid, { role: 'superuser' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('role');
    expect((await as(owner).change(member.uid, { banned: true })).body.errors).toContainEqual({
      field: 'banned',
      message: 'banned is not a field of this request.',
    });
    expect((await as(owner).change(member.uid, {})).status).toBe(400);
    expect((await as(owner).change('no-such-uid', { role: 'reader' })).status).toBe(404);

    // The only owner can be neither demoted nor disabled, by anyone.
    expect((await as(owner).change(owner.uid, { role: 'editor' })).status).toBe(409);
    expect((await as(owner).change(owner.uid, { disabled: true })).status).toBe(409);
    expect((await as(owner).change(member.uid, { role: 'owner' })).status).toBe(200);
    expect((await as(owner).change(owner.uid, { role: 'editor' })).body.role).toBe('editor');
    await setRole(server, owner.email, 'owner');
  });

  it('disabling a member ends their sessions at once; enabling lets them sign in again', async () => {
    const member = await signUp(server.url, 'Dee Disabled');
    const session = await signIn(member);
    expect((await as(editor).change(member.uid, { disabled: true })).body.disabled).toBe(true);
    expect((await api.create(member.idToken, sampleArticle('Too late'))).status).toBe(401);
    expect((await client.refresh(session.refreshToken)).body).toEqual(protocolError('USER_DISABLED'));
    expect((await client.signIn(member.email, member.password)).body).toEqual(protocolError('USER_DISABLED'));
    expect((await as(editor).change(member.uid, { disabled: false })).body.disabled).toBe(false);
    expect((await client.refresh(session.refreshToken)).body).toEqual(protocolError('TOKEN_EXPIRED'));
    await signIn(member);
    expect((await api.create(member.idToken, sampleArticle('Back'))).status).toBe(201);
  });

  it('ignores a role sent with a sign-up', async () => {
    const answer = await identityCall(server.url, 'accounts:signUp', {
      email: uniqueEmail(),
      password: 'secret-1',
      role: 'owner',
      customAttributes: '{"role":"owner"}',
      returnSecureToken: true,
    });
    expect(decodeJwt(answer.body.idToken).role).toBe('author');
  });
});
