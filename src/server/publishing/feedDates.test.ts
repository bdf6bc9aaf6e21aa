import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, signUp } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';

// RFC 3339 §5.6 date-time: four-digit year, always an offset.
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// Review finding 6: an article imported with a date in year 275760 made the feed write `+275760-…`.
describe.each(storageDatabases())('feed dates on $dialect', (dialectCase) => {
  let server: TestApp;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, {});
  });
  afterAll(() => server.close());

  it('writes only RFC 3339 dates, whatever dates the articles have', async () => {
    const author = await signUp(server.url, 'Dated');
    const api = articlesApi(server.url);
    const dates = [8.64e15, -8.64e15, -1, Date.UTC(2026, 10, 25, 12)];
    for (const [i, date] of dates.entries()) {
      const created = await api.create(author.idToken, {
        image: 'https://example.com/a.jpg',
        title: `Dated ${i}`,
        description: 'x',
      });
      expect(created.status, created.text).toBe(201);
      // As an import from before dates were checked left them (no API sets a date).
      await server.database.db.updateTable('articles').set({ date }).where('id', '=', created.body.id).execute();
    }

    const response = await fetch(`${server.url}/feed.xml`);
    expect(response.status).toBe(200);
    const feed = new XMLParser().parse(await response.text()).feed as {
      updated: string;
      entry: { published: string; updated: string }[];
    };
    const written = [feed.updated, ...feed.entry.flatMap((entry) => [entry.published, entry.updated])];
    expect(written).toHaveLength(1 + 2 * dates.length);
    for (const date of written) {
      expect(date).toMatch(RFC3339);
      expect(Number.isNaN(Date.parse(date))).toBe(false);
    }
    expect(feed.updated).toBe('9999-12-31T23:59:59.999Z');
  });
});
