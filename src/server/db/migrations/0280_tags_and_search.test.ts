import { afterEach, describe, expect, it } from 'vitest';
import { migratedJustBefore, type DatabaseBeforeMigration } from '../../../../test/support/migratedJustBefore.ts';
import { storageDatabases } from '../../../../test/support/testDatabases.ts';
import { searchIndex } from '../../articles/search/searchIndex.ts';
import { parseSearchQuery } from '../../articles/search/searchQuery.ts';
import { migrateToLatest } from '../migrate.ts';

describe.each(storageDatabases())('migration 0280 on $dialect', (dialectCase) => {
  let before: DatabaseBeforeMigration | undefined;

  afterEach(async () => {
    await before?.close();
  });

  it('indexes the articles written (or imported) before it: text, title and author, entities decoded', async () => {
    before = await migratedJustBefore(dialectCase, '0280_tags_and_search');
    const { database, db, addOldAuthor } = before;
    await addOldAuthor({ display_name: 'Émile Old' });
    // More rows than one backfill batch.
    const ids = Array.from({ length: 450 }, (_, i) => `article${String(i).padStart(13, '0')}`);
    for (let start = 0; start < ids.length; start += 150) {
      await db
        .insertInto('articles')
        .values(
          ids.slice(start, start + 150).map((id, i) => ({
            id,
            image: 'https://pictures.example/p.jpg',
            title: `Old ${start + i}`,
            description: 'x',
            description_html:
              id === ids[449] ? '<p>Fish &amp; chips by the <em>harbours</em></p>\n' : `<p>Body of ${id}</p>\n`,
            excerpt: 'x',
            author_id: 'u1',
            date: start + i,
          })),
        )
        .execute();
    }

    await migrateToLatest(database);

    const find = async (text: string) =>
      (await searchIndex(database.db, parseSearchQuery(text), 10, 0)).map((hit) => hit.articleId);
    expect(await find('harbour')).toEqual([ids[449]]);
    expect(await find('"fish & chips"')).toEqual([ids[449]]);
    expect((await searchIndex(database.db, parseSearchQuery('chips'), 1, 0))[0]!.body).toBe(
      'Fish & chips by the harbours',
    );
    expect(await find('emile')).toHaveLength(10);
    expect(await find('"old 17"')).toEqual([ids[17]]);
  });
});
