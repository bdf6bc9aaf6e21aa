import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, runAdmin, runAdminProcess } from '../support/adminRunner.ts';
import { articlesApi, signUp } from '../support/articlesTestClient.ts';
import { ghostExport } from '../support/ghostExportFixture.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { contractDatabases, storageDatabases, type TestDatabase } from '../support/testDatabases.ts';
import { plainJpeg, transparentPng } from '../support/testImages.ts';

const PUBLIC_URL = 'https://blog.example';

// Storage (one transaction, the record of what came in, a re-run): on both databases.
describe.each(storageDatabases())('import-ghost on $dialect', (dialectCase) => {
  let database: TestDatabase;
  let server: TestApp;
  let env: Record<string, string>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-ghost-'));
  const exportFile = path.join(dir, 'ghost-export.json');
  const images = path.join(dir, 'content', 'images');
  let existingEmail: string;

  beforeAll(async () => {
    database = await dialectCase.create();
    server = await startTestApp(dialectCase, { PUBLIC_URL }, { database });
    env = { DATABASE_URL: databaseUrl(database.config), PUBLIC_URL, DATA_DIR: dir };
    // One of Ghost's authors already has an account here: their posts join it.
    existingEmail = (await signUp(server.url, 'Already Here')).email;
    fs.mkdirSync(path.join(images, '2024', '05'), { recursive: true });
    fs.writeFileSync(path.join(images, '2024', '05', 'harbour.jpg'), await plainJpeg(400, 300));
    fs.writeFileSync(path.join(images, '2024', '05', 'chart.png'), await transparentPng(200, 100));
    const exported = ghostExport(
      [
        {
          id: '66a1',
          title: 'Harbour at dawn',
          slug: 'harbour-at-dawn',
          html:
            '<p>The boats go out at <strong>five</strong>. See <a href="__GHOST_URL__/nets-and-knots/">the nets</a>.</p>' +
            '<figure class="kg-card kg-image-card"><img src="__GHOST_URL__/content/images/2024/05/chart.png" class="kg-image" alt="Tide chart" loading="lazy" width="200" height="100"><figcaption>Tides</figcaption></figure>' +
            '<table><tr><th>Boat</th><th>Crew</th></tr><tr><td>Gull</td><td>3</td></tr></table>',
          feature_image: '__GHOST_URL__/content/images/2024/05/harbour.jpg',
          custom_excerpt: 'Boats, nets and the early tide.',
          tags: ['t1', 't2', 't3'],
          author: 'u1',
        },
        {
          id: '66a2',
          title: 'Nets and knots',
          slug: 'nets-and-knots',
          html: '<h2>Knots</h2><ul><li>Bowline</li><li>Clove hitch</li></ul>',
          feature_image: 'https://images.example.com/nets.jpg',
          published_at: '2023-11-20T10:00:00.000Z',
          tags: ['t2'],
          author: 'u2',
        },
        {
          id: '66a3',
          title: 'Half a thought',
          slug: 'half-a-thought',
          html: '<p>To be continued.</p>',
          status: 'draft',
          published_at: null,
          feature_image: 'https://images.example.com/half.jpg',
          author: 'u1',
        },
        { id: '66a4', title: 'About', slug: 'about', html: '<p>Who we are.</p>', type: 'page' },
        { id: '66a5', title: 'Members only letter', slug: 'letter', html: '<p>Hello members.</p>', status: 'sent' },
      ],
      [
        { id: 'u1', name: 'Mara Quay', email: 'Mara@Example.com' },
        { id: 'u2', name: 'Already Here', email: existingEmail },
      ],
      [
        { id: 't1', name: 'Harbour', slug: 'harbour' },
        { id: 't2', name: 'Boats', slug: 'boats' },
        { id: 't3', name: '#featured-home', slug: 'hash-featured-home' },
      ],
    );
    fs.writeFileSync(exportFile, JSON.stringify(exported));
  });

  afterAll(async () => {
    await server?.close();
    await database?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('brings posts, drafts, tags, excerpts, authors and images in; pages and email-only posts are counted out', async () => {
    const run = await runAdmin(['import-ghost', exportFile, '--images', images], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'Ghost import: 3 posts imported (2 published, 1 drafts), 1 skipped, 1 pages left out.',
    );
    expect(run.stdout).toContain('Authors: 1 accounts made without a password');
    expect(run.stdout).toContain('1 already here.');
    expect(run.stdout).toContain('Images: 2 stored as uploads, 0 not found.');
    expect(run.stdout).toMatch(/skipped post 66a5: "Members only letter": its status is sent/);

    const api = articlesApi(server.url);
    const list = (await api.list()).body.articles as {
      id: string;
      title: string;
      excerpt: string;
      tags: string[];
      date: string;
      authorName: string;
    }[];
    expect(list.map((article) => article.title)).toEqual(['Harbour at dawn', 'Nets and knots']);
    const [harbour, nets] = list;
    expect(harbour!.excerpt).toBe('Boats, nets and the early tide.');
    expect(harbour!.tags).toEqual(['Harbour', 'Boats']);
    expect(harbour!.date).toBe('2024-05-01T09:30:00.000Z');
    expect(nets!.date).toBe('2023-11-20T10:00:00.000Z');

    const article = (await api.get(harbour!.id)).body;
    expect(article.image).toMatch(new RegExp(`^${PUBLIC_URL}/images/[A-Za-z0-9_-]{22}/`));
    expect(article.description).toContain(`[the nets](/article/${nets!.id})`);
    expect(article.description).toMatch(new RegExp(`!\\[Tide chart\\]\\(${PUBLIC_URL}/images/[A-Za-z0-9_-]{22}/`));
    expect(article.description).toContain('| Boat | Crew |');
    expect(article.description).toContain('The boats go out at **five**.');
    const cover = await fetch(article.image.replace(PUBLIC_URL, server.url));
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toBe('image/jpeg');

    const author = JSON.parse((await runAdmin(['--json', 'users', 'show', 'mara@example.com'], env)).stdout).user;
    expect(author).toMatchObject({ displayName: 'Mara Quay', role: 'author', passwordAlgorithm: null });
    expect(harbour!.authorName).toBe('Mara Quay');
    expect(nets!.authorName).toBe('Already Here');
  });

  it('skips on a re-run what is there', async () => {
    const again = await runAdmin(['import-ghost', exportFile, '--images', images], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      'Ghost import: 0 posts imported (0 published, 0 drafts), 4 skipped, 1 pages left out.',
    );
    expect(again.stdout).toMatch(/skipped post 66a1: "Harbour at dawn": already imported/);
    expect((await articlesApi(server.url).list()).body.articles).toHaveLength(2);
  });
});

describe('import-ghost refuses a file that is not a Ghost 5 or 6 export', () => {
  const [sqlite] = contractDatabases();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-ghost-bad-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['not JSON', 'Title,Body\nA,B\n', /is not JSON \(cut short or not a Ghost export\?\)\.$/],
    [
      'cut short',
      JSON.stringify(ghostExport([], [{ id: 'u', name: 'U', email: 'u@example.com' }], [])).slice(0, 80),
      /is not JSON/,
    ],
    ['another shape', JSON.stringify({ users: [] }), /is not a Ghost export \(db: /],
    [
      'a value of 9 M characters',
      JSON.stringify(
        ghostExport(
          [{ id: 'a', title: 'x'.repeat(9 * 1024 * 1024), slug: 'a', html: '<p>A</p>' }],
          [{ id: 'u', name: 'U', email: 'u@example.com' }],
          [],
        ),
      ),
      /is not a Ghost export \(db\.0\.data\.posts\.0: a value is over 8 M characters\)/,
    ],
    [
      'brackets 100 deep',
      `{"db":[{"meta":{"version":"5.96.1"},"data":{"posts":[${'['.repeat(100)}${']'.repeat(100)}]}}]}`,
      /is not a Ghost export \(db\.0\.data\.posts\.0: values are nested over 64 deep\)/,
    ],
    [
      'Ghost 4',
      JSON.stringify(ghostExport([], [], [], '4.48.2')),
      /is an export of Ghost 4\.48\.2; this importer reads Ghost 5 and 6 exports\.$/,
    ],
  ])('%s: one line, exit 2, nothing written', async (_name, content, message) => {
    const database = await sqlite!.create();
    try {
      const file = path.join(dir, 'export.json');
      fs.writeFileSync(file, content);
      const env = { DATABASE_URL: databaseUrl(database.config), DATA_DIR: dir };
      const run = await runAdmin(['import-ghost', file], env);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr.trimEnd()).toMatch(message);
      // Not even migrated: the file was refused before the database was touched.
      expect((await runAdmin(['users', 'list'], env)).stderr).toContain('needs migrations');
    } finally {
      await database.dispose();
    }
  });
  it('from the command line (which starts itself again under the import heap limit): the same line and exit 2', async () => {
    const database = await sqlite!.create();
    try {
      const file = path.join(dir, 'cut.json');
      fs.writeFileSync(file, '{"db":[{"meta":{"version":"5.96.1"},"data":{"posts":[{"id":"a"');
      const run = await runAdminProcess(['import-ghost', file], {
        DATABASE_URL: databaseUrl(database.config),
        DATA_DIR: dir,
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`${file}: is not JSON (cut short or not a Ghost export?).\n`);
    } finally {
      await database.dispose();
    }
  });
});

// The reader streams the file in two passes (decision 0724): what it must get right whatever
// the file's order, and a file broken far into it. Reader behaviour: SQLite only.
describe('import-ghost streams its export', () => {
  const [sqlite] = contractDatabases();
  let database: TestDatabase;
  let server: TestApp;
  let env: Record<string, string>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-ghost-stream-'));
  const users = [{ id: 'u1', name: 'Mara Quay', email: 'mara@example.com' }];
  const tags = [
    { id: 't1', name: 'Harbour', slug: 'harbour' },
    { id: 't2', name: 'Boats', slug: 'boats' },
  ];
  const post = (i: number) => ({
    id: `s${i}`,
    title: `Tide table ${i}`,
    slug: `tide-table-${i}`,
    html: `<p>High water at ${i % 12} o'clock.</p>`,
    feature_image: 'https://images.example.com/tide.jpg',
    tags: ['t2', 't1'],
  });
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const titles = async () =>
    ((await articlesApi(server.url).list()).body.articles as { title: string }[]).map((article) => article.title);

  beforeAll(async () => {
    database = await sqlite!.create();
    server = await startTestApp(sqlite!, {}, { database });
    env = { DATABASE_URL: databaseUrl(database.config), DATA_DIR: dir };
  });

  afterAll(async () => {
    await server?.close();
    await database?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads an export whose posts come before the users, tags and links they name, and meta after data', async () => {
    const { db } = ghostExport([post(1), post(2)], users, tags);
    const { posts, posts_tags, posts_authors, ...rest } = db[0]!.data;
    // Keys in Ghost's data are in no promised order: here the posts first, the tables they name last.
    const reordered = {
      db: [
        {
          data: { posts, settings: rest.settings, posts_tags, posts_authors, tags: rest.tags, users: rest.users },
          meta: db[0]!.meta,
        },
      ],
    };
    const run = await runAdmin(['import-ghost', write('reordered.json', JSON.stringify(reordered))], env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      'Ghost import: 2 posts imported (2 published, 0 drafts), 0 skipped, 0 pages left out.',
    );
    const list = (await articlesApi(server.url).list()).body.articles as {
      title: string;
      tags: string[];
      authorName: string;
    }[];
    const seen = list.map(({ title, tags: names, authorName }) => ({ title, names, authorName }));
    expect(seen.sort((a, b) => a.title.localeCompare(b.title))).toEqual([
      { title: 'Tide table 1', names: ['Boats', 'Harbour'], authorName: 'Mara Quay' },
      { title: 'Tide table 2', names: ['Boats', 'Harbour'], authorName: 'Mara Quay' },
    ]);
  });

  it.each([
    [
      'cut short inside post 9,000',
      (text: string) => text.slice(0, text.indexOf('"id":"s9000"') + 40),
      /is not JSON \(cut short/,
    ],
    [
      'post 9,000 in another shape',
      (text: string) => text.replace('"title":"Tide table 9000"', '"title":9000'),
      /is not a Ghost export \(db\.0\.data\.posts\.8999\.title: /,
    ],
  ])(
    'a file of 9,500 posts %s changes nothing: one line, exit 2, the site as it was',
    async (_name, breakIt, message) => {
      const before = await titles();
      // Post 1 is here already; the rest, and a new author, would come in from a whole file.
      const posts = Array.from({ length: 9_500 }, (_, i) => ({ ...post(i + 1), author: 'u2' }));
      const text = JSON.stringify(
        ghostExport(posts, [...users, { id: 'u2', name: 'Tom Reed', email: 'tom@example.com' }], tags),
      );
      const run = await runAdmin(['import-ghost', write('broken.json', breakIt(text))], env);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr.trimEnd()).toMatch(message);
      expect(await titles()).toEqual(before);
      expect((await runAdmin(['users', 'show', 'tom@example.com'], env)).stderr).toContain('No account with email');
    },
  );
});
