import { afterEach, describe, expect, it } from 'vitest';
import { migratedJustBefore, type DatabaseBeforeMigration } from '../../../../test/support/migratedJustBefore.ts';
import { storageDatabases } from '../../../../test/support/testDatabases.ts';
import { migrateToLatest } from '../migrate.ts';

describe.each(storageDatabases())('migration 0500 on $dialect', (dialectCase) => {
  let before: DatabaseBeforeMigration | undefined;

  afterEach(async () => {
    await before?.close();
  });

  it('recomputes the stored excerpts of articles written before it so blocks no longer run together', async () => {
    before = await migratedJustBefore(dialectCase, '0500_excerpt_block_breaks');
    const { database, db } = before;
    await before.addOldAuthor();
    const recipe =
      '## Ingredients (for two)\n\n- 4 small dab, gutted, heads off\n- 60 g butter\n\nHeat the pan.\n\nServe';
    // More rows than one batch, so the walk over the key is exercised.
    const ids = Array.from({ length: 450 }, (_, i) => `article${String(i).padStart(13, '0')}`);
    for (let start = 0; start < ids.length; start += 150) {
      await db
        .insertInto('articles')
        .values(
          ids.slice(start, start + 150).map((id, i) => ({
            id,
            image: 'https://pictures.example/p.jpg',
            title: `Old ${start + i}`,
            description: id === ids[0] || id === ids[449] ? recipe : `Body of ${id}`,
            description_html: '<p>kept as it is</p>\n',
            // What the code before 0500 stored: every block run together.
            excerpt:
              id === ids[0] || id === ids[449]
                ? 'Ingredients (for two) 4 small dab, gutted, heads off 60 g butter Heat the pan. Serve'
                : `Body of ${id}`,
            author_id: 'u1',
            date: start + i,
          })),
        )
        .execute();
    }

    await migrateToLatest(database);

    const rows = await database.db
      .selectFrom('articles')
      .select(['id', 'excerpt', 'description', 'description_html'])
      .orderBy('id')
      .execute();
    expect(rows).toHaveLength(450);
    const expected = 'Ingredients (for two) · 4 small dab, gutted, heads off · 60 g butter · Heat the pan. Serve';
    expect(rows[0]!.excerpt).toBe(expected);
    expect(rows[449]!.excerpt).toBe(expected);
    for (const row of rows.slice(1, 449)) expect(row.excerpt).toBe(`Body of ${row.id}`);
    // Only the excerpt is recomputed: the article and its stored HTML are untouched.
    expect(rows[0]!.description).toBe(recipe);
    expect(rows[0]!.description_html).toBe('<p>kept as it is</p>\n');
  });
});
