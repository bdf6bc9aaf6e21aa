import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchPageSchema } from '../../../shared/searchSchema.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases, storageDatabases } from '../../../../test/support/testDatabases.ts';
import {
  articlesApi,
  articlesTestApp,
  identityCall,
  sampleArticle,
  signUp,
} from '../../../../test/support/articlesTestClient.ts';

type Api = ReturnType<typeof articlesApi>;

const search = (api: Api, query: string) => api.request('GET', `/search?${query}`);
const titlesFor = async (api: Api, q: string) => {
  const answer = await search(api, `q=${encodeURIComponent(q)}&limit=50`);
  expect(answer.status, answer.text).toBe(200);
  return searchPageSchema.parse(answer.body).results.map((result) => result.article.title);
};
/** A snippet's text as a reader sees it, marks and escapes undone. */
const readable = (snippet: string) =>
  snippet
    .replace(/<\/?mark>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe.each(storageDatabases())('search on $dialect', (dialectCase) => {
  const app = articlesTestApp(dialectCase);
  const write = async (title: string, description: string, tags: string[] = []) => {
    const answer = await app.api.create(app.alice.idToken, { ...sampleArticle(title), description, tags });
    expect(answer.status, answer.text).toBe(201);
    return answer.body.id as string;
  };

  beforeAll(async () => {
    await write('Evening walk', 'The harbours were quiet and the boats slept.');
    await write('Coffee notes', 'We met at the Café Ümlaut near the station.');
    await write('Lighthouse', 'A tall white tower by the sea.');
    await write('Coastal diary', 'We walked to the lighthouse at dawn, then home.');
    await write('Winter harbour', 'Cold water, quiet harbour, winter light.');
    await write('Summer harbour', 'Warm water and a busy harbour in summer.');
    await write('Tagged only', 'Nothing to see in the text.', ['Origami']);
  });

  it('finds words in the text with English stemming, ignoring case and diacritics', async () => {
    expect(await titlesFor(app.api, 'harbour')).toEqual(
      expect.arrayContaining(['Evening walk', 'Winter harbour', 'Summer harbour']),
    );
    expect(await titlesFor(app.api, 'HARBOURS')).toContain('Evening walk');
    expect(await titlesFor(app.api, 'cafe')).toEqual(['Coffee notes']);
    expect(await titlesFor(app.api, 'umlaut')).toEqual(['Coffee notes']);
    expect(await titlesFor(app.api, 'Ümlaut café')).toEqual(['Coffee notes']);
  });

  it('ranks a title match above a text match', async () => {
    const titles = await titlesFor(app.api, 'lighthouse');
    expect(titles).toEqual(['Lighthouse', 'Coastal diary']);
  });

  it('matches "phrases" and leaves out -excluded words and phrases', async () => {
    expect(await titlesFor(app.api, '"quiet harbour"')).toEqual(['Winter harbour']);
    expect(await titlesFor(app.api, '"harbour quiet"')).toEqual([]);
    expect((await titlesFor(app.api, 'harbour -winter')).sort()).toEqual(['Evening walk', 'Summer harbour']);
    expect(await titlesFor(app.api, 'harbour -"busy harbour" -evening')).toEqual(['Winter harbour']);
  });

  it('finds tags and author names', async () => {
    expect(await titlesFor(app.api, 'origami')).toEqual(['Tagged only']);
    const author = await signUp(app.server.url, 'Zebedee Quill');
    await app.api.create(author.idToken, sampleArticle('By Zebedee'));
    expect(await titlesFor(app.api, 'zebedee')).toEqual(['By Zebedee']);
  });

  it('follows an author rename into the index', async () => {
    const author = await signUp(app.server.url, 'Ottoline Brisk');
    await app.api.create(author.idToken, sampleArticle('Renamed author'));
    expect(await titlesFor(app.api, 'ottoline')).toEqual(['Renamed author']);
    const renamed = await identityCall(app.server.url, 'accounts:update', {
      idToken: author.idToken,
      displayName: 'Peregrine Brisk',
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await titlesFor(app.api, 'ottoline')).toEqual([]);
    expect(await titlesFor(app.api, 'peregrine')).toEqual(['Renamed author']);
  });

  it('follows edits and deletes', async () => {
    const id = await write('Transient', 'Marmalade sandwiches.');
    expect(await titlesFor(app.api, 'marmalade')).toEqual(['Transient']);
    await app.api.update(app.alice.idToken, id, { ...sampleArticle('Transient'), description: 'Jam sandwiches.' });
    expect(await titlesFor(app.api, 'marmalade')).toEqual([]);
    expect(await titlesFor(app.api, 'jam')).toEqual(['Transient']);
    await app.api.update(app.alice.idToken, id, {
      ...sampleArticle('Transient'),
      description: 'Jam.',
      tags: ['Preserves'],
    });
    expect(await titlesFor(app.api, 'preserves')).toEqual(['Transient']);
    await app.api.remove(app.alice.idToken, id);
    expect(await titlesFor(app.api, 'jam')).toEqual([]);
  });

  it('sends snippets of at most 200 characters around the first match, marked and escaped', async () => {
    const long = `${'Filler words go here. '.repeat(30)}Then a <script>alert("x")</script> & the kraken's lair. ${'More filler after. '.repeat(30)}`;
    await write('Deep sea', long);
    const answer = await search(app.api, 'q=krakens');
    const [result] = searchPageSchema.parse(answer.body).results;
    expect(result!.article.title).toBe('Deep sea');
    const snippet = result!.snippet;
    expect(snippet).toContain('<mark>kraken</mark>');
    expect(snippet).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;');
    expect(snippet.replace(/<\/?mark>/g, '')).not.toMatch(/<|>/);
    expect(snippet.startsWith('…') && snippet.endsWith('…')).toBe(true);
    const text = readable(snippet).replace(/…/g, '');
    expect([...text].length).toBeLessThanOrEqual(200);
    expect(long).toContain(text.trim());

    // Only the title matched: the snippet is the text's opening.
    const [titleOnly] = searchPageSchema.parse((await search(app.api, 'q=lighthouse')).body).results;
    expect(titleOnly!.snippet).toBe('A tall white tower by the sea.');
  });

  it('pages with nextCursor until the last page', async () => {
    for (let i = 0; i < 5; i++) await write(`Pelican ${i}`, 'A pelican story.');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await search(app.api, `q=pelican&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      const page = searchPageSchema.parse(answer.body);
      expect(page.results.length).toBeLessThanOrEqual(2);
      seen.push(...page.results.map((result) => result.article.title));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(['Pelican 0', 'Pelican 1', 'Pelican 2', 'Pelican 3', 'Pelican 4']);
  });

  it('answers 400 to empty or too long text and bad paging, with the field', async () => {
    for (const [query, field] of [
      ['', 'q'],
      ['q=', 'q'],
      ['q=%20%20', 'q'],
      [`q=${'a'.repeat(201)}`, 'q'],
      [`q=${'é'.repeat(201)}`, 'q'],
      ['q=a&q=b', 'q'],
      ['q=a&limit=0', 'limit'],
      ['q=a&limit=51', 'limit'],
      ['q=a&cursor=abc', 'cursor'],
      ['q=a&cursor=-1', 'cursor'],
      ['q=a&cursor=99999', 'cursor'],
    ] as const) {
      const answer = await search(app.api, query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors, query).toEqual([{ field, message: expect.any(String) }]);
    }
    expect((await search(app.api, `q=${'é'.repeat(200)}`)).status).toBe(200);
  });

  it('answers query syntax of either database as plain words', async () => {
    for (const q of [
      'NEAR(harbour quiet)',
      'harbour*',
      'harbour OR lighthouse',
      "harbour & !quiet | 'x':*",
      '"',
      '-',
      '(("',
      'title:harbour',
      '\\',
    ]) {
      const answer = await search(app.api, `q=${encodeURIComponent(q)}`);
      expect([200], q).toContain(answer.status);
    }
    // OR is a word here, not an operator: both words must match.
    expect(await titlesFor(app.api, 'harbour OR lighthouse')).toEqual([]);
  });
});

describe.each(contractDatabases())('search rate limit on $dialect', (dialectCase) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp(dialectCase, { RATE_LIMIT_SEARCH_PER_IP: '3' });
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After past the limit per client', async () => {
    const api = articlesApi(server.url);
    for (let i = 0; i < 3; i++) expect((await search(api, 'q=anything')).status).toBe(200);
    const limited = await search(api, 'q=anything');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
