import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { storageDatabases, type TestDatabase } from '../../../test/support/testDatabases.ts';
import { createAuthorsRepository } from './authorsRepository.ts';

/**
 * The slugs authors' pages are found by, as stored: numbered in order for people of one name,
 * a slug once held staying its holder's, and the account id past the hundredth of one name.
 */
describe.each(storageDatabases())('author slugs on $dialect', (dialectCase) => {
  let testDatabase: TestDatabase;
  let database: Database;
  let authors: ReturnType<typeof createAuthorsRepository>;
  let made = 0;

  const addAccount = async (name: string | null, id = `acct${String(made).padStart(17, '0')}`) => {
    made += 1;
    const now = Date.now();
    await database.db
      .insertInto('users')
      .values({
        id,
        email: `${id.toLowerCase()}@example.test`,
        password_hash: '',
        display_name: name,
        photo_url: null,
        email_verified: 1,
        disabled: 0,
        created_at: now,
        last_login_at: now,
        password_updated_at: now,
        role: 'author',
        valid_since: now,
        address_claimed: 0,
        claimable_role: null,
      })
      .execute();
    return id;
  };
  const rename = (id: string, name: string) =>
    database.db.updateTable('users').set({ display_name: name }).where('id', '=', id).execute();

  beforeAll(async () => {
    testDatabase = await dialectCase.create();
    database = openDatabase(testDatabase.config);
    await migrateToLatest(database);
    authors = createAuthorsRepository(database.db, () => Date.now());
  });
  afterAll(async () => {
    await database.close();
    await testDatabase.dispose();
  });

  it('numbers people of one name in order; a renamed author keeps the old slug, so it is not given again', async () => {
    const ids = [await addAccount('Sam Lee'), await addAccount('Sam Lee'), await addAccount('Sam Lee')];
    const slugs = [];
    for (const id of ids) slugs.push(await authors.ensureSlug(id));
    expect(slugs).toEqual(['sam-lee', 'sam-lee-2', 'sam-lee-3']);

    await rename(ids[1]!, 'Kim Park');
    expect(await authors.ensureSlug(ids[1]!)).toBe('kim-park');
    // sam-lee-2 still leads to Kim's page (it redirects there): the next Sam Lee is the fourth.
    const fourth = await addAccount('Sam Lee');
    expect(await authors.ensureSlug(fourth)).toBe('sam-lee-4');
    // Kim taking the name back gets the old slug again: it is Kim's.
    await rename(ids[1]!, 'Sam Lee');
    expect(await authors.ensureSlug(ids[1]!)).toBe('sam-lee-2');
  });

  it('never gives a slug that is another account id; past a hundred of one name the id makes it unique', async () => {
    // An account whose id spells what the next "Quinn" would get.
    await addAccount(null, 'quinn-2');
    const first = await addAccount('Quinn');
    const second = await addAccount('Quinn');
    expect(await authors.ensureSlug(first)).toBe('quinn');
    expect(await authors.ensureSlug(second)).toBe('quinn-3');

    const nameless: string[] = [];
    for (let index = 0; index < 101; index += 1) nameless.push(await addAccount(null));
    const given: string[] = [];
    for (const id of nameless) given.push((await authors.ensureSlug(id))!);
    expect(given.slice(0, 3)).toEqual(['author', 'author-2', 'author-3']);
    expect(given[99]).toBe('author-100');
    expect(given[100]).toBe(`author-${nameless[100]!.toLowerCase()}`);
    expect(new Set(given).size).toBe(101);
  });
});
