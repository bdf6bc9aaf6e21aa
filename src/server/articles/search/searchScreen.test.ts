import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp } from '../../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../../test/support/testApp.ts';
import { contractDatabases } from '../../../../test/support/testDatabases.ts';
import { SERVED_SCREEN_ELEMENT_ID } from '../../../shared/servedScreen.ts';

// `/search?q=` rendered by the server, so that it reads without script (DESIGN.md §9.6).

/** The HTML inside the app's root element, and the page's served data block. */
function rendered(html: string) {
  const root = /<div id="root">([\s\S]*?)<\/div><script type="application\/json" id="served-screen">/.exec(html);
  const data = new RegExp(`<script type="application/json" id="${SERVED_SCREEN_ELEMENT_ID}">(.*?)</script>`).exec(html);
  // React marks where text pieces meet (<!-- -->): not what a reader sees.
  return { root: (root?.[1] ?? '').replaceAll('<!-- -->', ''), data: data ? JSON.parse(data[1]!) : undefined };
}

describe.each(contractDatabases())('the search page rendered by the server, on $dialect', (dialectCase) => {
  let server: TestApp;

  beforeAll(async () => {
    // The real build: its server renderer is what these tests are about. Few searches a minute,
    // so that the page's share of the API's limit shows.
    server = await startTestApp(dialectCase, { RATE_LIMIT_SEARCH_PER_IP: '8' }, { webDist: 'built' });
    const writer = await signUp(server.url, 'Wren Writer');
    const api = articlesApi(server.url);
    for (let n = 1; n <= 23; n += 1) {
      const created = await api.create(writer.idToken, {
        ...sampleArticle(`Logbook ${n}`),
        description: `## Day ${n}\n\nThe whetstone came out after supper.`,
      });
      expect(created.status, created.text).toBe(201);
    }
    await api.create(writer.idToken, sampleArticle('Nothing to find'));
  });
  afterAll(() => server.close());

  it('carries the results, marked, and links to the next page, which the server renders too', async () => {
    const answer = await fetch(`${server.url}/search?q=whetstone`);
    expect(answer.status).toBe(200);
    // The asker's alone, as the API's answer: no cache keeps a page per made-up query.
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const first = rendered(await answer.text());
    expect(first.root).toContain('“whetstone”</h1>');
    expect(first.root.match(/<article /g)).toHaveLength(20);
    expect(first.root).toContain('<mark>whetstone</mark>');
    expect(first.root).not.toContain('Nothing to find');
    const more = /<a href="([^"]*)"[^>]*>More results<\/a>/.exec(first.root);
    expect(more?.[1]).toBe('/search?q=whetstone&amp;cursor=20');
    expect(first.data).toMatchObject({ kind: 'search', q: 'whetstone', page: { nextCursor: '20' } });

    const second = rendered(await (await fetch(`${server.url}/search?q=whetstone&cursor=20`)).text());
    expect(second.root.match(/<article /g)).toHaveLength(3);
    expect(second.root).not.toContain('More results');
    const seen = [...`${first.root}${second.root}`.matchAll(/>Logbook (\d+)</g)].map((match) => Number(match[1]));
    expect(new Set(seen).size).toBe(23);
  });

  it('explains no text and no match in the page, and refuses a cursor it did not issue', async () => {
    const empty = rendered(await (await fetch(`${server.url}/search`)).text());
    expect(empty.root).toContain('Type a word in the search box to find articles');
    const none = rendered(await (await fetch(`${server.url}/search?q=${encodeURIComponent('no-such-word')}`)).text());
    expect(none.root).toContain('No articles match “no-such-word”.');
    const long = rendered(await (await fetch(`${server.url}/search?q=${'a'.repeat(201)}`)).text());
    expect(long.root).toContain('Search text can be at most');
    for (const cursor of ['abc', '-1', '99999999', '']) {
      const refused = await fetch(`${server.url}/search?q=whetstone&cursor=${cursor}`);
      expect(refused.status, cursor).toBe(400);
      expect(await refused.text()).not.toContain(SERVED_SCREEN_ELEMENT_ID);
    }
  });

  it('counts against the same searches a minute as the API', async () => {
    let status = 200;
    for (let n = 0; n < 10 && status === 200; n += 1) {
      status = (await fetch(`${server.url}/search?q=supper`)).status;
    }
    expect(status).toBe(429);
    expect((await articlesApi(server.url).request('GET', '/search?q=supper')).status).toBe(429);
  });
});
