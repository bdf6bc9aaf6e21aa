import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, runAdmin } from '../support/adminRunner.ts';
import { articlesApi, signUp, type TestUser } from '../support/articlesTestClient.ts';
import { identityClient } from '../support/identityTestClient.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { contractDatabases, type TestDatabase } from '../support/testDatabases.ts';
import { plainJpeg } from '../support/testImages.ts';
import { signUpWithVerifiedAddress } from '../support/verifiedAccounts.ts';

const PUBLIC_URL = 'https://blog.example';
const [sqlite] = contractDatabases();

/** Every entry of a zip, by name. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

// An HTTP contract and a file: on SQLite (the export reads through Kysely alike on both).
describe('export and GET /api/export', () => {
  let database: TestDatabase;
  let server: TestApp;
  let owner: TestUser;
  let author: TestUser;
  let env: Record<string, string>;
  let articleId: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-export-'));

  beforeAll(async () => {
    database = await sqlite!.create();
    server = await startTestApp(sqlite!, { PUBLIC_URL }, { database });
    env = { DATABASE_URL: databaseUrl(database.config), PUBLIC_URL, DATA_DIR: dir };
    owner = await signUpWithVerifiedAddress(server, 'Olive Owner');
    owner.idToken = (await identityClient(server.url).signIn(owner.email, owner.password)).body.idToken;
    expect((await runAdmin(['users', 'role', owner.email, 'owner'], env)).code).toBe(0);
    author = await signUp(server.url, 'Arlo Author');
    const uploaded = await fetch(`${server.url}/api/images`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${owner.idToken}` },
      body: new Uint8Array(await plainJpeg(120, 80)),
    });
    const imageUrl = ((await uploaded.json()) as { url: string }).url;
    const api = articlesApi(server.url);
    const made = await api.create(owner.idToken, {
      title: 'Lanterns, "lit"',
      description: `Evening.\n\n![Lantern](${imageUrl})`,
      image: imageUrl,
      tags: ['Night', 'Light'],
    });
    articleId = made.body.id;
    await api.request('POST', `/articles/${articleId}/comments`, { token: owner.idToken, json: { body: 'First!' } });
    const csv = path.join(dir, 'subscribers.csv');
    fs.writeFileSync(csv, 'email\nreader@example.com\n');
    expect((await runAdmin(['subscribers', 'import', csv], env)).code).toBe(0);
  });

  afterAll(async () => {
    await server?.close();
    await database?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is for owners only', async () => {
    expect((await fetch(`${server.url}/api/export`)).status).toBe(401);
    const asAuthor = await fetch(`${server.url}/api/export`, {
      headers: { authorization: `Bearer ${author.idToken}` },
    });
    expect(asAuthor.status).toBe(403);
    expect(((await asAuthor.json()) as { detail: string }).detail).toBe('Only owners may export the site.');
  });

  it('gives an owner every article, image, author, comment and subscriber, and no secret', async () => {
    const answer = await fetch(`${server.url}/api/export`, { headers: { authorization: `Bearer ${owner.idToken}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toMatch(
      /^attachment; filename="inkwell-export-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const bytes = Buffer.from(await answer.arrayBuffer());
    const entries = await unzip(bytes);
    const names = [...entries.keys()];
    const markdownName = names.find((name) => name.startsWith('articles/'))!;
    expect(markdownName).toMatch(new RegExp(`^articles/\\d{4}-\\d{2}-\\d{2}-${articleId}\\.md$`));
    const markdown = entries.get(markdownName)!.toString();
    expect(markdown).toMatch(/^---\nid: "[A-Za-z0-9]{20}"\ntitle: "Lanterns, \\"lit\\""\ndate: \d{4}-/);
    expect(markdown).toContain('tags: ["Night","Light"]\nstatus: published\ncover: "/images/');
    expect(markdown).toContain('---\nEvening.\n\n![Lantern](/images/');
    expect(names.filter((name) => name.startsWith('images/')).length).toBeGreaterThan(1);
    const authors = JSON.parse(entries.get('authors.json')!.toString()).authors;
    expect(authors.map((a: { email: string }) => a.email).sort()).toEqual([author.email, owner.email].sort());
    expect(authors.find((a: { email: string }) => a.email === owner.email)).toMatchObject({
      role: 'owner',
      displayName: 'Olive Owner',
    });
    expect(JSON.parse(entries.get('comments.json')!.toString()).comments).toMatchObject([
      { articleId, body: 'First!' },
    ]);
    expect(entries.get('subscribers.csv')!.toString()).toMatch(
      /^email,status,created_at\nreader@example\.com,confirmed,/,
    );

    const { password_hash } = await server.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', owner.uid)
      .executeTakeFirstOrThrow();
    const text = [...entries.values()].map((entry) => entry.toString('latin1')).join('\n');
    expect(text).not.toContain(password_hash);
    expect(text).not.toMatch(/password|refresh_token|secret|token_hash/i);
  });

  it('writes the same archive with the admin command', async () => {
    const file = path.join(dir, 'site.zip');
    const run = await runAdmin(['export', file], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Exported the site to .*site\.zip \(\d+ bytes\)\.\n$/);
    const names = [...(await unzip(fs.readFileSync(file))).keys()];
    expect(names).toEqual(expect.arrayContaining(['authors.json', 'comments.json', 'subscribers.csv']));
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });
});
