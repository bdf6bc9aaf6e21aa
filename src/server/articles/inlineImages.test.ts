import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { plainJpeg } from '../../../test/support/testImages.ts';

// Issue 26 point 6: pictures uploaded into an article's text get the resized copies covers get.
describe.each(contractDatabases())('images in an article’s text on $dialect', (dialectCase) => {
  let server: TestApp;
  let author: TestUser;

  beforeAll(async () => {
    server = await startTestApp(dialectCase);
    author = await signUp(server.url, 'Inline Author');
  });
  afterAll(() => server.close());

  it('gives this server’s uploads srcset, sizes, width and height, and leaves other pictures as written', async () => {
    const response = await fetch(`${server.url}/api/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${author.idToken}`, 'content-type': 'image/jpeg' },
      body: new Uint8Array(await plainJpeg(1700, 1100)),
    });
    expect(response.status).toBe(201);
    const { url } = (await response.json()) as { url: string };
    const base = url.replace(/\/[^/]+$/, '');
    const elsewhere = 'https://pictures.example/images/AAAAAAAAAAAAAAAAAAAAAA/1700x1100.jpg';

    const created = await articlesApi(server.url).create(author.idToken, {
      image: url,
      title: 'Two pictures',
      description: `![Boats at dawn](${url})\n\n![From elsewhere](${elsewhere})`,
    });
    expect(created.status, created.text).toBe(201);
    const html = created.body.descriptionHtml as string;
    expect(html).toContain(
      `<img src="${url}" alt="Boats at dawn" loading="lazy" decoding="async" referrerpolicy="no-referrer" ` +
        `srcset="${base}/480w 480w, ${base}/960w 960w, ${base}/1600w 1600w, ${base}/1700w 1700w" ` +
        `sizes="(min-width: 45rem) 42rem, 100vw" width="1700" height="1100">`,
    );
    expect(html).toContain(
      `<img src="${elsewhere}" alt="From elsewhere" loading="lazy" decoding="async" referrerpolicy="no-referrer">`,
    );
    // Each copy the srcset names is served.
    for (const width of [480, 960, 1600, 1700]) {
      const copy = await fetch(`${base}/${width}w`.replace(/^http:\/\/localhost:\d+/, server.url));
      expect(copy.status, `${width}w`).toBe(200);
    }
    // Stored without the origin (decision 0300), srcset included: a move keeps every copy.
    const stored = await server.database.db
      .selectFrom('articles')
      .select('description_html')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.description_html).not.toContain(server.config.publicUrl);
    expect(stored.description_html).toContain(`srcset="${new URL(base).pathname}/480w 480w, /images/`);
  });
});
