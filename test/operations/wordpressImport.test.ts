import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, runAdmin } from '../support/adminRunner.ts';
import { articlesApi } from '../support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { contractDatabases, type TestDatabase } from '../support/testDatabases.ts';
import { plainJpeg } from '../support/testImages.ts';
import { wxrExport } from '../support/wxrFixture.ts';

const PUBLIC_URL = 'https://blog.example';
const OLD = 'https://old.example';
const [sqlite] = contractDatabases();

// The storage path is import-ghost's (tested on both databases); this is the WXR reader's contract.
describe('import-wordpress', () => {
  let database: TestDatabase;
  let server: TestApp;
  let env: Record<string, string>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-wp-'));
  const uploads = path.join(dir, 'wp-content', 'uploads');
  const write = (name: string, content: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  };

  beforeAll(async () => {
    database = await sqlite!.create();
    server = await startTestApp(sqlite!, { PUBLIC_URL }, { database });
    env = { DATABASE_URL: databaseUrl(database.config), PUBLIC_URL, DATA_DIR: dir };
    fs.mkdirSync(path.join(uploads, '2024', '05'), { recursive: true });
    fs.writeFileSync(path.join(uploads, '2024', '05', 'meadow.jpg'), await plainJpeg(320, 200));
  });

  afterAll(async () => {
    await server?.close();
    await database?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('brings posts with categories and tags, featured images and uploads; pages and the trash stay out', async () => {
    const file = write(
      'export.xml',
      wxrExport(
        OLD,
        [{ login: 'june', email: 'june@example.com', name: 'June Field' }],
        [
          {
            id: 10,
            title: 'Meadow walk',
            slug: 'meadow-walk',
            // Classic editor: paragraphs are blank lines, WordPress adds the <p> when it shows them.
            content: `Grass to the knees &amp; larks overhead.\n\nBack by <a href="${OLD}/hedge-notes/">the hedge</a>.\n\n<img src="${OLD}/wp-content/uploads/2024/05/meadow.jpg" alt="Meadow" width="320" height="200" />`,
            excerpt: 'A walk in June.',
            categories: ['Walks', 'Uncategorized'],
            tags: ['Summer'],
            thumbnailId: 11,
          },
          {
            id: 11,
            title: 'meadow',
            slug: 'meadow',
            type: 'attachment',
            attachmentUrl: `${OLD}/wp-content/uploads/2024/05/meadow.jpg`,
          },
          {
            id: 12,
            title: 'Hedge notes',
            slug: 'hedge-notes',
            content: '<!-- wp:paragraph -->\n<p>Hawthorn, then blackthorn.</p>\n<!-- /wp:paragraph -->',
            status: 'pending',
            thumbnailId: 11,
            dateGmt: '2023-04-02 07:00:00',
          },
          { id: 13, title: 'Contact', slug: 'contact', type: 'page', content: '<p>Write to us.</p>' },
          { id: 14, title: 'Old junk', slug: 'old-junk', status: 'trash', content: '<p>Gone.</p>' },
        ],
      ),
    );
    const run = await runAdmin(['import-wordpress', file, '--uploads', uploads], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'WordPress import: 2 posts imported (1 published, 1 drafts), 1 skipped, 1 pages left out.',
    );
    expect(run.stdout).toContain('Images: 1 stored as uploads, 0 not found.');
    expect(run.stdout).toMatch(/skipped post 14: "Old junk": its status is trash/);

    const api = articlesApi(server.url);
    const [walk] = (await api.list()).body.articles;
    expect(walk).toMatchObject({
      title: 'Meadow walk',
      tags: ['Walks', 'Summer'],
      excerpt: 'A walk in June.',
      authorName: 'June Field',
    });
    const article = (await api.get(walk.id)).body;
    expect(article.description).toMatch(
      /^Grass to the knees & larks overhead\.\n\nBack by \[the hedge\]\(\/article\/[A-Za-z0-9]{20}\)\./,
    );
    expect(article.image).toMatch(new RegExp(`^${PUBLIC_URL}/images/`));
    // The featured image and the inline one are the same file: stored once.
    expect(article.description).toContain(`![Meadow](${article.image})`);
    const again = await runAdmin(['import-wordpress', file, '--uploads', uploads], env);
    expect(again.stdout).toContain('WordPress import: 0 posts imported');
  });

  it.each([
    [
      'entity expansion (billion laughs)',
      '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n<rss><channel><title>&lol2;</title></channel></rss>',
      /has a DOCTYPE; a WordPress export has none \(entity declarations are refused\)\.$/,
    ],
    [
      'an external entity (XXE)',
      '<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<rss><channel><title>&xxe;</title></channel></rss>',
      /has a DOCTYPE/,
    ],
    [
      'cut short',
      wxrExport(
        OLD,
        [{ login: 'a', email: 'a@example.com', name: 'A' }],
        [{ id: 1, title: 'T', slug: 't', content: '<p>x</p>' }],
      ).slice(0, 1500),
      /is not well-formed XML \(/,
    ],
    [
      'an RSS feed, not an export',
      '<?xml version="1.0"?><rss version="2.0"><channel><title>Feed</title><item><title>A</title></item></channel></rss>',
      /is not a WordPress export \(no <wp:wxr_version>\)\.$/,
    ],
    ['not XML', '{"db": []}', /is not well-formed XML/],
  ])('refuses %s with one line and exit 2, writing nothing', async (_name, content, message) => {
    const fresh = await sqlite!.create();
    try {
      const freshEnv = { DATABASE_URL: databaseUrl(fresh.config), DATA_DIR: dir };
      const run = await runAdmin(['import-wordpress', write('bad.xml', content)], freshEnv);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr.trimEnd()).toMatch(message);
      expect((await runAdmin(['users', 'list'], freshEnv)).stderr).toContain('needs migrations');
    } finally {
      await fresh.dispose();
    }
  });
});
