import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migratedJustBefore, type DatabaseBeforeMigration } from '../../../../test/support/migratedJustBefore.ts';
import { storageDatabases } from '../../../../test/support/testDatabases.ts';
import { migrateToLatest } from '../migrate.ts';

const TABLE_ARTICLE =
  '## What you need\n\n| Time | Step |\n| --- | --- |\n| 5 min | Soak the stone |\n\nSee the [Atom feed](/feed.xml).';
const OWN_PICTURE = '/images/AAAAAAAAAAAAAAAAAAAAAA/800x600.jpg';
// What the renderer before 0660 stored for it: pipes as text, the site link dropped to its text.
const OLD_HTML =
  '<h3>What you need</h3>\n<p>| Time | Step |<br>\n| --- | --- |<br>\n| 5 min | Soak the stone |</p>\n<p>See the [Atom feed](/feed.xml).</p>\n';

describe.each(storageDatabases())('migration 0660 on $dialect', (dialectCase) => {
  let before: DatabaseBeforeMigration | undefined;

  afterEach(async () => {
    await before?.close();
  });

  it('renders the tables, site links and captions of articles written before it, in page, excerpt and search, and leaves others alone', async () => {
    before = await migratedJustBefore(dialectCase, '0660_tables_links_captions');
    const { database, db } = before;
    const postgres = dialectCase.dialect === 'postgres';
    await before.addOldAuthor({ display_name: 'Old Author' });
    const article = (id: string, description: string, description_html: string, excerpt: string) => ({
      id,
      image: 'https://pictures.example/p.jpg',
      title: `Title ${id}`,
      description,
      description_html,
      excerpt,
      author_id: 'u1',
      date: 1,
    });
    await db
      .insertInto('articles')
      .values([
        article(
          'a1-table',
          TABLE_ARTICLE,
          OLD_HTML,
          'What you need · | Time | Step | | --- | --- | | 5 min | Soak the stone | · See the [Atom feed](/feed.xml).',
        ),
        article('a2-picture', `| A | B |\n| - | - |\n| 1 | 2 |\n\n![Stone](${OWN_PICTURE})`, '<p>old</p>\n', 'old'),
        article('a3-plain', 'Just words.', '<p>kept as it is</p>\n', 'Just words.'),
        article('a4-caption', '![Boats](https://pictures.example/b.jpg "Dawn, from the pier")', '<p>old</p>\n', ''),
      ])
      .execute();
    for (const id of ['a1-table', 'a3-plain']) {
      if (postgres) {
        await sql`insert into article_search (article_id, body, tags, document)
                  values (${id}, 'old body', '', inkwell_search_document(${`Title ${id}`}, 'old body', '', 'Old Author'))`.execute(
          db,
        );
      } else {
        const key = await sql<{
          search_rowid: number;
        }>`insert into article_search_keys (article_id) values (${id}) returning search_rowid`.execute(db);
        await sql`insert into article_search (rowid, title, body, tags, author)
                  values (${key.rows[0]!.search_rowid}, ${`Title ${id}`}, 'old body', '', 'Old Author')`.execute(db);
      }
    }

    await migrateToLatest(database);

    const rows = await database.db
      .selectFrom('articles')
      .select(['id', 'description', 'description_html', 'excerpt'])
      .orderBy('id')
      .execute();
    const [table, picture, plain, captioned] = rows;
    expect(table!.description_html).toContain('<table>\n<thead>\n<tr>\n<th>Time</th>');
    expect(table!.description_html).toContain('<td>Soak the stone</td>');
    expect(table!.description_html).toContain('<a href="/feed.xml">Atom feed</a>');
    expect(table!.description_html).not.toContain('|');
    expect(table!.excerpt).toBe('What you need · Time · Step · 5 min · Soak the stone · See the Atom feed.');
    expect(table!.description).toBe(TABLE_ARTICLE);
    // This server's picture keeps its srcset, origin-free as every write stores it (decision 0300).
    expect(picture!.description_html).toContain(`<img src="${OWN_PICTURE}"`);
    expect(picture!.description_html).toContain(
      'srcset="/images/AAAAAAAAAAAAAAAAAAAAAA/480w 480w, /images/AAAAAAAAAAAAAAAAAAAAAA/800w 800w"',
    );
    expect(picture!.description_html).not.toContain('invalid');
    expect(plain!.description_html).toBe('<p>kept as it is</p>\n');
    expect(captioned!.description_html).toContain('<figcaption>Dawn, from the pier</figcaption></figure>');

    const bodies = postgres
      ? (
          await sql<{
            id: string;
            body: string;
          }>`select article_id as id, body from article_search order by article_id`.execute(db)
        ).rows
      : (
          await sql<{ id: string; body: string }>`select k.article_id as id, s.body from article_search s
                 join article_search_keys k on k.search_rowid = s.rowid order by k.article_id`.execute(db)
        ).rows;
    expect(bodies).toEqual([
      { id: 'a1-table', body: 'What you need · Time · Step · 5 min · Soak the stone · See the Atom feed.' },
      { id: 'a3-plain', body: 'old body' },
    ]);
  });
});
