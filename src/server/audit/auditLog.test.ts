import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { databaseUrl, runAdmin } from '../../../test/support/adminRunner.ts';
import { identityClient } from '../../../test/support/identityTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { AUDIT_PAGE_SIZE } from './auditRoutes.ts';
import { staffAccounts } from '../../../test/support/staffAccounts.ts';

interface Entry {
  id: string;
  at: string;
  actorUid: string | null;
  action: string;
  targetType: string;
  targetId: string;
  detail: Record<string, unknown>;
}

// docs/product.md, Audit log.
describe.each(storageDatabases())('the audit log on $dialect', (dialectCase) => {
  let server: TestApp;
  let api: ReturnType<typeof articlesApi>;
  let owner: TestUser;
  let editor: TestUser;
  let author: TestUser;
  // Every reading of the clock is a later millisecond: "newest first" is then one order.
  let last = 0;
  const clock = () => (last = Math.max(Date.now(), last + 1));

  const audit = (token: string | undefined, query = '') => api.request('GET', `/audit${query}`, { token });
  /** Every entry, newest first, through the API's pages. */
  async function allEntries(): Promise<Entry[]> {
    const entries: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page = await audit(owner.idToken, cursor ? `?cursor=${cursor}` : '');
      expect(page.status).toBe(200);
      entries.push(...(page.body.entries as Entry[]));
      cursor = page.body.nextCursor as string | null;
    } while (cursor);
    return entries;
  }
  /** The entries as stored: the API adds names as of now (auditNames.test.ts), the admin command does not. */
  const stored = (entries: Entry[]) =>
    entries.map(({ id, at, actorUid, action, targetType, targetId, detail }) => ({
      ...{ id, at, actorUid, action, targetType, targetId, detail },
    }));
  const entriesAbout = async (targetId: string) => (await allEntries()).filter((e) => e.targetId === targetId);
  /** Waits until the wall clock has passed every reading of the app's clock. */
  const clockCaughtUp = async () => {
    while (Date.now() <= last) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  // The admin command keeps the wall clock: it runs once the app's readings are behind it, and
  // the app's next reading comes after it, as when an operator types a command between requests.
  const admin = async (args: string[]) => {
    await clockCaughtUp();
    const run = await runAdmin(args, {
      DATABASE_URL: databaseUrl(server.config.database),
      DATA_DIR: server.config.dataDir,
    });
    last = Date.now();
    await clockCaughtUp();
    return run;
  };

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { PUBLIC_URL: 'https://blog.example' }, { clock });
    api = articlesApi(server.url);
    ({ owner, editor, author } = await staffAccounts(server));
  });
  afterAll(() => server?.close());

  it('is for owners only: 401 without a token, 403 for editors and authors', async () => {
    expect((await audit(undefined)).status).toBe(401);
    expect((await audit(editor.idToken)).status).toBe(403);
    expect((await audit(author.idToken)).body.detail).toBe('Only owners may read the audit log.');
    const answer = await audit(owner.idToken);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('records the operator’s role changes with no actor', async () => {
    expect(await entriesAbout(editor.uid)).toEqual([
      {
        id: expect.any(String),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        actorUid: null,
        action: 'member.role',
        targetType: 'user',
        targetId: editor.uid,
        detail: { from: 'author', to: 'editor' },
        actorName: null,
        actorGone: false,
        targetName: 'Eddie Editor',
        targetGone: false,
      },
    ]);
  });

  it('records role changes, disables and enables made through the members API, with who made them', async () => {
    const member = await signUp(server.url, 'Mo Member');
    const change = (token: string, json: unknown) => api.request('PATCH', `/members/${member.uid}`, { token, json });
    expect((await change(editor.idToken, { role: 'reader' })).status).toBe(200);
    expect((await change(owner.idToken, { disabled: true })).status).toBe(200);
    expect((await change(owner.idToken, { disabled: false, role: 'contributor' })).status).toBe(200);
    // Nothing changed, nothing recorded; a refused change neither.
    expect((await change(owner.idToken, { role: 'contributor' })).status).toBe(200);
    expect((await change(editor.idToken, { role: 'editor' })).status).toBe(403);
    const entries = await entriesAbout(member.uid);
    expect(entries.map(({ actorUid, action, detail }) => ({ actorUid, action, detail }))).toEqual([
      // One PATCH changing both: two rows, the role's first.
      { actorUid: owner.uid, action: 'member.enable', detail: {} },
      { actorUid: owner.uid, action: 'member.role', detail: { from: 'reader', to: 'contributor' } },
      { actorUid: owner.uid, action: 'member.disable', detail: {} },
      { actorUid: editor.uid, action: 'member.role', detail: { from: 'author', to: 'reader' } },
    ]);
  });

  it('records nothing when the last owner is kept (409)', async () => {
    const before = (await allEntries()).length;
    expect(
      (await api.request('PATCH', `/members/${owner.uid}`, { token: owner.idToken, json: { role: 'editor' } })).status,
    ).toBe(409);
    expect((await allEntries()).length).toBe(before);
  });

  it('records invitations made, used (by the new account) and revoked', async () => {
    const invite = (role: string, email?: string) =>
      api.request('POST', '/invitations', { token: editor.idToken, json: { role, email } });
    const kept = await invite('author', 'newcomer@example.com');
    const revoked = await invite('contributor');
    expect(kept.status).toBe(201);
    expect((await api.request('DELETE', `/invitations/${revoked.body.id}`, { token: owner.idToken })).status).toBe(204);
    const joined = await identityClient(server.url).signUp('newcomer@example.com', 'secret-1', {
      inviteCode: new URL(kept.body.url).searchParams.get('invite')!,
    });
    expect(joined.status).toBe(200);
    const newUid = joined.body.localId as string;

    expect(await entriesAbout(kept.body.id)).toMatchObject([
      { actorUid: newUid, action: 'invitation.use', targetType: 'invitation', detail: { role: 'author' } },
      {
        actorUid: editor.uid,
        action: 'invitation.create',
        targetType: 'invitation',
        detail: { role: 'author', email: 'newcomer@example.com' },
      },
    ]);
    expect(await entriesAbout(revoked.body.id)).toMatchObject([
      { actorUid: owner.uid, action: 'invitation.revoke', targetType: 'invitation' },
      { actorUid: editor.uid, action: 'invitation.create', detail: { role: 'contributor', email: null } },
    ]);
    // The code itself is never in the log.
    const code = new URL(kept.body.url).searchParams.get('invite')!;
    expect(JSON.stringify(await allEntries())).not.toContain(code);
  });

  it('records editors’ hides, restores and deletions of another’s article, not an author deleting their own', async () => {
    const made = await api.create(author.idToken, sampleArticle('Moderated'));
    const id = made.body.id as string;
    expect(
      (await api.request('POST', `/articles/${id}/hide`, { token: editor.idToken, json: { reason: 'Spam' } })).status,
    ).toBe(200);
    expect((await api.request('POST', `/articles/${id}/restore`, { token: editor.idToken })).status).toBe(200);
    expect((await api.remove(editor.idToken, id)).status).toBe(204);
    const entries = await entriesAbout(id);
    expect(entries.map(({ actorUid, action, targetType }) => ({ actorUid, action, targetType }))).toEqual([
      { actorUid: editor.uid, action: 'article.delete', targetType: 'article' },
      { actorUid: editor.uid, action: 'article.restore', targetType: 'article' },
      { actorUid: editor.uid, action: 'article.hide', targetType: 'article' },
    ]);
    expect(entries[2]!.detail).toMatchObject({ reason: 'Spam' });
    const own = (await api.create(author.idToken, sampleArticle('Mine'))).body.id as string;
    expect((await api.remove(author.idToken, own)).status).toBe(204);
    expect(await entriesAbout(own)).toEqual([]);
  });

  it('pages newest first with a cursor; pages neither overlap nor skip', async () => {
    for (let i = 0; i < AUDIT_PAGE_SIZE + 5; i++) {
      expect(
        (await api.request('POST', '/invitations', { token: owner.idToken, json: { role: 'reader' } })).status,
      ).toBe(201);
    }
    const first = await audit(owner.idToken);
    expect(first.body.entries).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await audit(owner.idToken, `?cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    const all = await allEntries();
    expect([...first.body.entries, ...second.body.entries].map((e: Entry) => e.id)).toEqual(
      all.slice(0, first.body.entries.length + second.body.entries.length).map((e) => e.id),
    );
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    const times = all.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await audit(owner.idToken, '?cursor=not-ours')).status).toBe(400);
    expect((await audit(owner.idToken, '?cursor=WzEsMl0')).status).toBe(400);
  });

  it('keeps every row when the people and things it names are gone', async () => {
    const leaver = await signUp(server.url, 'Lee Leaver');
    await setRole(server, leaver.email, 'editor');
    const made = await api.request('POST', '/invitations', { token: leaver.idToken, json: { role: 'author' } });
    const before = await entriesAbout(leaver.uid);
    const invitationRows = await entriesAbout(made.body.id);
    const deleted = await admin(['users', 'delete', leaver.email]);
    expect(deleted.code).toBe(0);
    // The rows as stored; their names are as of now (auditNames.test.ts: a deleted one says so).
    expect(stored(await entriesAbout(leaver.uid))).toEqual(stored(before));
    expect(stored(await entriesAbout(made.body.id))).toEqual(stored(invitationRows));
    expect(invitationRows[0]).toMatchObject({ actorUid: leaver.uid, action: 'invitation.create' });
  });

  it('npm run admin -- audit prints the newest entries as a table, or JSON lines with --json', async () => {
    const member = await signUp(server.url, 'Ada Admin');
    expect((await admin(['users', 'role', member.email, 'contributor'])).code).toBe(0);
    expect((await admin(['users', 'disable', member.email])).code).toBe(0);

    const table = await admin(['audit', '--limit', '2']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AT +ACTOR +ACTION +TARGET +DETAIL$/);
    expect(lines[1]).toMatch(new RegExp(`^\\S+ +\\(operator\\) +member\\.disable +user ${member.uid}$`));
    expect(lines[2]).toMatch(
      new RegExp(`^\\S+ +\\(operator\\) +member\\.role +user ${member.uid} +\\{"from":"author","to":"contributor"\\}$`),
    );
    expect(lines[3]).toBe('2 entries, newest first.');

    const json = await admin(['--json', 'audit', '--limit', '3']);
    expect(json.code).toBe(0);
    const rows = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Entry);
    expect(rows).toHaveLength(3);
    expect(rows).toEqual(stored((await allEntries()).slice(0, 3)));
    expect(rows[0]).toMatchObject({ actorUid: null, action: 'member.disable', targetId: member.uid });

    const defaulted = await admin(['--json', 'audit']);
    expect(defaulted.stdout.trimEnd().split('\n')).toHaveLength(Math.min(100, (await allEntries()).length));
    expect((await admin(['--help'])).stdout).toContain('audit [--limit N]');
    const misuse = await admin(['users', 'list', '--limit', '5']);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toContain('--limit is not an option of "users list".');
    expect((await admin(['audit', '--limit'])).stderr).toContain('--limit needs a value.');
    for (const bad of ['0', '1.5', 'ten', '100001']) {
      const refused = await admin(['audit', '--limit', bad]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('--limit takes a whole number from 1 to 100000.');
    }
  });

  // Last: it takes the table away from this server.
  it('a change whose audit row cannot be written does not happen (one transaction)', async () => {
    const member = await signUp(server.url, 'Tess Transaction');
    await sql`drop table audit_log`.execute(server.database.db);
    const answer = await api.request('PATCH', `/members/${member.uid}`, {
      token: owner.idToken,
      json: { role: 'reader' },
    });
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain('audit_log');
    const row = await server.database.db
      .selectFrom('users')
      .select('role')
      .where('id', '=', member.uid)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe('author');
    const invitations = () =>
      server.database.db
        .selectFrom('invitations')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
    const before = Number((await invitations()).n);
    expect((await api.request('POST', '/invitations', { token: owner.idToken, json: { role: 'reader' } })).status).toBe(
      500,
    );
    expect(Number((await invitations()).n)).toBe(before);
  });
});

describe('the audit log is append-only', () => {
  it('no source file updates or deletes audit_log rows', () => {
    const root = path.join(import.meta.dirname, '..', '..');
    const offending: string[] = [];
    for (const file of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file) || file.endsWith('.test.ts')) continue;
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      if (/(updateTable|deleteFrom)\(\s*['"]audit_log['"]|(update|delete\s+from)\s+"?audit_log/i.test(text)) {
        offending.push(file);
      }
    }
    expect(offending).toEqual([]);
    // The test can fail: the pattern catches what it is for.
    expect(/(updateTable|deleteFrom)\(\s*['"]audit_log['"]/.test("db.deleteFrom('audit_log')")).toBe(true);
  });
});
