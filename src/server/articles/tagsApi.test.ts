import { describe, expect, it } from 'vitest';
import { tagSlug } from '../../shared/tags.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { articlesTestApp, sampleArticle } from '../../../test/support/articlesTestClient.ts';

describe('tag slugs', () => {
  it('lower-cases, removes diacritics, keeps letters and digits of any script, joins the rest with -', () => {
    expect(tagSlug('  Café Culture ')).toBe('cafe-culture');
    expect(tagSlug('C++ & Rust!')).toBe('c-rust');
    expect(tagSlug('--Año 2026--')).toBe('ano-2026');
    expect(tagSlug('Ελληνικά Νέα')).toBe('ελληνικα-νεα');
    expect(tagSlug('日本語')).toBe('日本語');
    expect(tagSlug('हिन्दी')).toBe('हिन्दी');
    expect(tagSlug('!!!')).toBe('');
  });
});

describe.each(storageDatabases())('tags on $dialect', (dialectCase) => {
  const app = articlesTestApp(dialectCase);
  const withTags = (title: string, tags: unknown) => ({ ...sampleArticle(title), tags });

  it('stores tags in order, merged by slug with the spelling first used, and lists them by slug', async () => {
    const first = await app.api.create(
      app.alice.idToken,
      withTags('Tags one', [' Café Culture ', 'cafe-culture', 'Tea']),
    );
    expect(first.status, first.text).toBe(201);
    expect(first.body.tags).toEqual(['Café Culture', 'Tea']);
    // A later spelling of the same slug shows as the first one.
    const second = await app.api.create(app.bob.idToken, withTags('Tags two', ['CAFE CULTURE']));
    expect(second.body.tags).toEqual(['Café Culture']);
    expect((await app.api.get(second.body.id)).body.tags).toEqual(['Café Culture']);

    const listed = await app.api.list('?tag=cafe-culture');
    expect(listed.status).toBe(200);
    expect(listed.body.articles.map((article: { id: string }) => article.id)).toEqual([second.body.id, first.body.id]);
    expect(listed.body.articles[1].tags).toEqual(['Café Culture', 'Tea']);
    expect((await app.api.list('?tag=tea')).body.articles.map((article: { id: string }) => article.id)).toEqual([
      first.body.id,
    ]);
    expect((await app.api.list('?tag=no-such-tag')).body).toEqual({ articles: [], nextCursor: null });
    // The home list carries tags too.
    const home = await app.api.list('?limit=100');
    expect(home.body.articles.find((article: { id: string }) => article.id === first.body.id).tags).toEqual([
      'Café Culture',
      'Tea',
    ]);
  });

  it('pages a tag list with the same cursors as the home list', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await app.api.create(app.alice.idToken, withTags(`Paged ${i}`, ['Paging']))).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await app.api.list(`?tag=paging&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.articles.map((article: { id: string }) => article.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids.reverse());
  });

  it('replaces tags on a PUT with tags and keeps them on a PUT without', async () => {
    const created = await app.api.create(app.alice.idToken, withTags('Keep me', ['Keep', 'Me']));
    const kept = await app.api.update(app.alice.idToken, created.body.id, sampleArticle('Kept tags'));
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.tags).toEqual(['Keep', 'Me']);
    const replaced = await app.api.update(app.alice.idToken, created.body.id, withTags('Replaced', ['Other']));
    expect(replaced.body.tags).toEqual(['Other']);
    expect((await app.api.list('?tag=keep')).body.articles).toEqual([]);
    const cleared = await app.api.update(app.alice.idToken, created.body.id, withTags('Cleared', []));
    expect(cleared.body.tags).toEqual([]);
    expect((await app.api.get(created.body.id)).body.tags).toEqual([]);
  });

  it.each([
    [['a', 'b', 'c', 'd', 'e', 'f'], /at most 5 tags/],
    [['x'.repeat(31)], /at most 30 characters/],
    [['!!!'], /at least one letter or digit/],
    [['  '], /cannot be empty/],
    [[42], /must be text/],
    ['tea', /list/],
  ])('rejects tags %j with a field error and stores nothing', async (tags, message) => {
    const before = (await app.api.list('?limit=100')).body.articles.length;
    const answer = await app.api.create(app.alice.idToken, withTags('Bad tags', tags));
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'tags', message: expect.stringMatching(message) }]);
    expect((await app.api.list('?limit=100')).body.articles.length).toBe(before);
  });

  it('accepts 5 tags of 30 characters', async () => {
    const tags = ['a', 'b', 'c', 'd', 'e'].map((letter) => letter.repeat(30));
    const answer = await app.api.create(app.alice.idToken, withTags('Full tags', tags));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.tags).toEqual(tags);
  });

  it('answers 400 to a tag parameter that is no slug', async () => {
    for (const query of [
      '?tag=Caf%C3%A9',
      '?tag=',
      '?tag=a--b',
      '?tag=-a',
      '?tag=a&tag=b',
      `?tag=${'a'.repeat(121)}`,
    ]) {
      const answer = await app.api.list(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors).toEqual([{ field: 'tag', message: expect.any(String) }]);
    }
  });

  it('lists the most used tags of published articles with their counts', async () => {
    await app.api.create(app.bob.idToken, withTags('Counted 1', ['Zeta', 'Counted']));
    await app.api.create(app.bob.idToken, withTags('Counted 2', ['Counted']));
    const deleted = await app.api.create(app.bob.idToken, withTags('Counted 3', ['Counted', 'Gone']));
    await app.api.remove(app.bob.idToken, deleted.body.id);
    const answer = await app.api.request('GET', '/tags');
    expect(answer.status).toBe(200);
    const tags: { name: string; slug: string; count: number }[] = answer.body.tags;
    expect(tags).toContainEqual({ name: 'Counted', slug: 'counted', count: 2 });
    expect(tags).toContainEqual({ name: 'Zeta', slug: 'zeta', count: 1 });
    expect(tags.find((tag) => tag.slug === 'gone')).toBeUndefined();
    const counts = tags.map((tag) => tag.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(tags.length).toBeLessThanOrEqual(100);
  });
});
