import { afterEach, describe, expect, it } from 'vitest';
import { migratedJustBefore, type DatabaseBeforeMigration } from '../../../../test/support/migratedJustBefore.ts';
import { storageDatabases } from '../../../../test/support/testDatabases.ts';
import { migrateToLatest } from '../migrate.ts';

describe.each(storageDatabases())('migration 0006 on $dialect', (dialectCase) => {
  let before: DatabaseBeforeMigration | undefined;

  afterEach(async () => {
    await before?.close();
  });

  it('renders the articles written before Markdown: they read as they did, line breaks and all', async () => {
    before = await migratedJustBefore(dialectCase, '0006_markdown_and_images');
    const { database, db } = before;

    await before.addOldAuthor();
    const plain = 'Line one\nLine two\n\nSecond paragraph with <b>tags</b> & a link: https://example.com';
    // More rows than one backfill batch, so the walk over the key is exercised.
    const ids = Array.from({ length: 450 }, (_, i) => `article${String(i).padStart(13, '0')}`);
    for (let start = 0; start < ids.length; start += 100) {
      await db
        .insertInto('articles')
        .values(
          ids.slice(start, start + 100).map((id, i) => ({
            id,
            image: 'https://pictures.example/p.jpg',
            title: `Old ${start + i}`,
            description: id === ids[0] ? plain : `Body of ${id}`,
            author_id: 'u1',
            date: start + i,
          })),
        )
        .execute();
    }

    await migrateToLatest(database);

    const first = await database.db
      .selectFrom('articles')
      .select(['description', 'description_html', 'excerpt'])
      .where('id', '=', ids[0]!)
      .executeTakeFirstOrThrow();
    expect(first.description).toBe(plain);
    expect(first.description_html).toBe(
      '<p>Line one<br>\nLine two</p>\n<p>Second paragraph with &lt;b&gt;tags&lt;/b&gt; &amp; a link: ' +
        '<a href="https://example.com" rel="nofollow ugc noopener">https://example.com</a></p>\n',
    );
    // As migration 0500 (run after it, to the latest) recomputes it: the paragraphs kept apart.
    expect(first.excerpt).toBe('Line one Line two · Second paragraph with <b>tags</b> & a link: https://example.com');

    const rows = await database.db.selectFrom('articles').select(['id', 'description_html', 'excerpt']).execute();
    expect(rows).toHaveLength(450);
    for (const row of rows.filter((r) => r.id !== ids[0])) {
      expect(row.description_html).toBe(`<p>Body of ${row.id}</p>\n`);
      expect(row.excerpt).toBe(`Body of ${row.id}`);
    }
  });
});
