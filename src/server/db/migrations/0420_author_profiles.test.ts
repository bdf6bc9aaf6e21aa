import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { storageDatabases, type TestDatabase } from '../../../../test/support/testDatabases.ts';
import { openDatabase, type Database } from '../database.ts';
import { migrateToLatest } from '../migrate.ts';
import { migrations } from './index.ts';

describe.each(storageDatabases())('migration 0420 on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase | undefined;
  let database: Database | undefined;

  afterEach(async () => {
    await database?.close();
    await testDatabase?.dispose();
  });

  it('gives every existing account the slug of its name, numbered where names are shared', async () => {
    testDatabase = await dialectCase.create();
    database = openDatabase(testDatabase.config);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the old schema is not the typed one
    const db = database.db as unknown as Kysely<any>;
    const before = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await before.migrateTo('0360_origin_free_images')).error).toBeUndefined();
    // More accounts than one batch: numbering carries across batches.
    const names = Array.from({ length: 520 }, (_, i) => (i % 2 === 0 ? 'Émile Zola' : `Writer ${i}`));
    names.push('', '???');
    await db
      .insertInto('users')
      .values(
        names.map((name, i) => ({
          id: `u${String(i).padStart(4, '0')}`,
          email: `user${i}@example.com`,
          password_hash: 'x',
          created_at: 1,
          password_updated_at: 1,
          valid_since: 1,
          display_name: name === '' ? null : name,
        })),
      )
      .execute();

    await migrateToLatest(database);

    const profiles = await db
      .selectFrom('author_profiles')
      .select(['author_id', 'slug', 'slug_name', 'bio'])
      .orderBy('author_id')
      .execute();
    expect(profiles).toHaveLength(names.length);
    const slugOf = new Map(profiles.map((row: { author_id: string; slug: string }) => [row.author_id, row.slug]));
    expect(slugOf.get('u0000')).toBe('emile-zola');
    expect(slugOf.get('u0002')).toBe('emile-zola-2');
    expect(slugOf.get('u0518')).toBe('emile-zola-260');
    expect(slugOf.get('u0001')).toBe('writer-1');
    expect(slugOf.get('u0520')).toBe('author');
    expect(slugOf.get('u0521')).toBe('author-2');
    expect(new Set(slugOf.values()).size).toBe(names.length);
    expect(profiles.every((row: { bio: string }) => row.bio === '')).toBe(true);
    const slugs = await db.selectFrom('author_slugs').select(['slug', 'author_id']).execute();
    expect(slugs).toHaveLength(names.length);
  });
});
