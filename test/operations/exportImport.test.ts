import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, runAdmin } from '../support/adminRunner.ts';
import { articlesApi, type TestUser } from '../support/articlesTestClient.ts';
import { identityClient } from '../support/identityTestClient.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { contractDatabases, storageDatabases, type TestDatabase } from '../support/testDatabases.ts';
import { plainJpeg } from '../support/testImages.ts';
import { signUpWithVerifiedAddress } from '../support/verifiedAccounts.ts';

const [sqlite] = contractDatabases();

/** A zip of the given entries, as bytes. */
function zipOf(entries: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

// The way back in from `export`: a file into a new site, compared by what readers and the API see.
// From SQLite into each database (one transaction of many tables' rows: what the database decides).
describe.each(storageDatabases())('import-export: an export brought into an empty site ($dialect)', (targetCase) => {
  let source: TestDatabase;
  let target: TestDatabase;
  let from: TestApp;
  let to: TestApp | undefined;
  let owner: TestUser;
  let author: TestUser;
  let published: string;
  let draft: string;
  let scheduled: string;
  let cover: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-restore-'));
  const archive = path.join(dir, 'site.zip');
  let targetEnv: Record<string, string>;

  beforeAll(async () => {
    source = await sqlite!.create();
    target = await targetCase.create();
    from = await startTestApp(sqlite!, { PUBLIC_URL: 'https://old.example' }, { database: source });
    const sourceEnv = { DATABASE_URL: databaseUrl(source.config), PUBLIC_URL: 'https://old.example', DATA_DIR: dir };
    targetEnv = { DATABASE_URL: databaseUrl(target.config), PUBLIC_URL: 'https://new.example', DATA_DIR: dir };
    owner = await signUpWithVerifiedAddress(from, 'Olive Owner');
    owner.idToken = (await identityClient(from.url).signIn(owner.email, owner.password)).body.idToken;
    expect((await runAdmin(['users', 'role', owner.email, 'owner'], sourceEnv)).code).toBe(0);
    author = await signUpWithVerifiedAddress(from, 'Arlo Author');
    const uploaded = await fetch(`${from.url}/api/images`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${author.idToken}` },
      body: new Uint8Array(await plainJpeg(900, 600)),
    });
    cover = ((await uploaded.json()) as { url: string }).url;
    const api = articlesApi(from.url);
    published = (
      await api.create(author.idToken, {
        title: 'Lanterns',
        description: `Evening *light*.\n\n![Lantern](${cover})`,
        image: cover,
        tags: ['Night', 'Light'],
        excerpt: 'Lamps at dusk, and what they show.',
      })
    ).body.id;
    scheduled = (
      await api.create(author.idToken, {
        title: 'Next year',
        description: 'Later.',
        image: cover,
        status: 'scheduled',
        publishAt: '2099-01-01T00:00:00.000Z',
      })
    ).body.id;
    draft = (
      await api.create(author.idToken, { title: 'Half done', description: 'Soon.', image: cover, status: 'draft' })
    ).body.id;
    const first = await api.request('POST', `/articles/${published}/comments`, {
      token: owner.idToken,
      json: { body: 'Lovely **glow**.' },
    });
    await api.request('POST', `/articles/${published}/comments`, {
      token: author.idToken,
      json: { body: 'Thank you!', parentId: first.body.id },
    });
    // A reply from the fediverse, as the federation inbox stores one.
    await from.database.db
      .insertInto('comments')
      .values({
        id: 'remote-comment-1',
        article_id: published,
        parent_id: first.body.id,
        author_uid: null,
        remote_author_id: 'https://social.example/users/rey',
        remote_author_name: 'Rey Remote',
        remote_author_url: 'https://social.example/@rey',
        remote_author_photo_url: null,
        remote_object_id: 'https://social.example/notes/1',
        body: 'From afar.',
        body_html: '<p>From afar.</p>\n',
        status: 'published',
        hidden_reason: null,
        created_at: Date.now(),
        edited_at: null,
      })
      .execute();
    const csv = path.join(dir, 'subscribers.csv');
    fs.writeFileSync(csv, 'email\nreader@example.com\n');
    expect((await runAdmin(['subscribers', 'import', csv], sourceEnv)).code).toBe(0);
    const exported = await runAdmin(['export', archive], sourceEnv);
    expect(exported.code, exported.stderr).toBe(0);
  });

  afterAll(async () => {
    await to?.close();
    await from?.close();
    await source?.dispose();
    await target?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const refusals: [string, () => Promise<Buffer>, RegExp][] = [
    ['a truncated archive', async () => fs.readFileSync(archive).subarray(0, 2000), /is not a readable zip archive/],
    ['a file that is no zip', async () => Buffer.from('{"posts": []}'), /is not a readable zip archive/],
    [
      'a zip of something else',
      () => zipOf({ 'notes.txt': 'hello' }),
      /is not an Inkwell export \(it holds "notes\.txt"\)/,
    ],
    [
      'a path out of the archive',
      async () => {
        // yazl will not write "../", so the name is changed in the bytes, as a hostile tool would.
        const bytes = await zipOf({ 'zz/zz/evil.md': 'x', 'authors.json': '{}' });
        return Buffer.from(bytes.toString('latin1').replaceAll('zz/zz/', '../../'), 'latin1');
      },
      /is not a readable zip archive|is damaged/,
    ],
    [
      'a zip bomb',
      () => zipOf({ 'images.json': Buffer.alloc(20 * 1024 * 1024, 32) }),
      /compressed more than an honest file can be/,
    ],
    [
      'an article whose author is not in the export',
      async () =>
        zipOf({
          'articles/2026-01-01-AAAAAAAAAAAAAAAAAAAA.md':
            '---\nid: "AAAAAAAAAAAAAAAAAAAA"\ntitle: "T"\ndate: 2026-01-01T00:00:00.000Z\nauthor: "nobody"\n' +
            'authorName: null\ntags: []\nstatus: published\ncover: "https://x.example/a.jpg"\nexcerpt: "T"\n---\nText\n',
          'authors.json': '{"authors":[]}',
          'comments.json': '{"comments":[]}',
          'images.json': '{"images":[]}',
          'subscribers.csv': 'email,status,created_at\n',
        }),
      /article AAAAAAAAAAAAAAAAAAAA's author is not in authors\.json/,
    ],
  ];

  it.each(refusals)('refuses %s with one line and exit 2, changing nothing', async (_name, make, message) => {
    const file = path.join(dir, 'bad.zip');
    fs.writeFileSync(file, await make());
    const run = await runAdmin(['import-export', file], targetEnv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    // Nothing written, not even the schema: the site is still new (the round trip below imports into it).
    expect((await runAdmin(['users', 'list'], targetEnv)).stderr).toMatch(
      /^(No database at |The database needs migrations \(0001_identity)/,
    );
  });

  it('brings back every article, image, comment, author and subscriber as readers and the API see them', async () => {
    const run = await runAdmin(['import-export', archive], targetEnv);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      'Imported the export: 3 articles, 1 images, 3 comments, 1 subscribers.\n' +
        'Accounts: 2 made without a password (they sign in through "Forgot password?").\n',
    );
    to = await startTestApp(targetCase, { PUBLIC_URL: 'https://new.example' }, { database: target });
    const before = articlesApi(from.url);
    const after = articlesApi(to.url);
    const moved = (value: unknown) =>
      JSON.parse(JSON.stringify(value).replaceAll('https://old.example', 'https://new.example'));

    const list = (await after.list()).body;
    expect(list).toEqual(moved((await before.list()).body));
    expect((await after.get(published)).body).toEqual(moved((await before.get(published)).body));
    expect((await after.get(published)).body).toMatchObject({
      tags: ['Night', 'Light'],
      status: 'published',
      excerpt: 'Lamps at dusk, and what they show.',
      customExcerpt: 'Lamps at dusk, and what they show.',
    });
    // A scheduled article stays scheduled, for its time; a made excerpt does not become the author's.
    const stored = await to.database.db
      .selectFrom('articles')
      .select(['status', 'publish_at', 'custom_excerpt'])
      .where('id', '=', scheduled)
      .executeTakeFirstOrThrow();
    expect({ ...stored, publish_at: Number(stored.publish_at) }).toEqual({
      status: 'draft',
      publish_at: Date.parse('2099-01-01T00:00:00.000Z'),
      custom_excerpt: null,
    });
    const comments = await after.request('GET', `/articles/${published}/comments`);
    expect(comments.status).toBe(200);
    expect(comments.body).toEqual(moved((await before.request('GET', `/articles/${published}/comments`)).body));
    expect(JSON.stringify(comments.body)).toContain('Rey Remote');

    // The image and its variants, byte for byte, at the new address.
    const path_ = new URL(cover).pathname;
    const [old, fresh] = await Promise.all([fetch(`${from.url}${path_}`), fetch(`${to.url}${path_}`)]);
    expect(fresh.status).toBe(200);
    expect(Buffer.from(await fresh.arrayBuffer()).equals(Buffer.from(await old.arrayBuffer()))).toBe(true);
    const variants = await to.database.db.selectFrom('image_files').select('name').execute();
    expect(variants.length).toBeGreaterThan(1);

    // The draft stays a draft, its date kept; accounts keep their uid and role, without a password.
    const rows = await to.database.db.selectFrom('articles').select(['id', 'status', 'date']).orderBy('id').execute();
    const oldRows = await from.database.db
      .selectFrom('articles')
      .select(['id', 'status', 'date'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual(oldRows);
    expect(rows.find((row) => row.id === draft)?.status).toBe('draft');
    const users = await to.database.db.selectFrom('users').select(['id', 'email', 'role', 'password_hash']).execute();
    expect(users.map(({ id, role }) => ({ id, role })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: owner.uid, role: 'owner' },
        { id: author.uid, role: 'author' },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(users.every((user) => user.password_hash === '')).toBe(true);
    const signIn = await identityClient(to.url).signIn(owner.email, owner.password);
    expect(signIn.status).toBe(400);

    const subscribers = await runAdmin(['subscribers', 'export'], targetEnv);
    expect(subscribers.stdout).toMatch(/^email,status,created_at\nreader@example\.com,confirmed,/);
  });

  it('refuses a site that is not empty', async () => {
    const run = await runAdmin(['import-export', archive], targetEnv);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/: this site is not empty .*import an export only into a new site\.\n$/);
    const count = await to!.database.db
      .selectFrom('articles')
      .select(to!.database.db.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  });
});
