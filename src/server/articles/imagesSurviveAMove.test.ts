import { afterEach, describe, expect, it } from 'vitest';
import { articlesApi, identityCall, signUp } from '../../../test/support/articlesTestClient.ts';
import { migratedJustBefore, type DatabaseBeforeMigration } from '../../../test/support/migratedJustBefore.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases, storageDatabases, type TestDatabase } from '../../../test/support/testDatabases.ts';
import { plainJpeg } from '../../../test/support/testImages.ts';
import { migrateToLatest } from '../db/migrate.ts';

const TRIED_AT = 'http://localhost:3900';
const DEPLOYED_AT = 'https://blog.example.org';

async function upload(server: TestApp, token: string, bytes: Buffer): Promise<string> {
  const response = await fetch(`${server.url}/api/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
    body: new Uint8Array(bytes),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { url: string }).url;
}

describe.each(contractDatabases())('uploaded images after a move to another PUBLIC_URL, on $dialect', (dialectCase) => {
  let database: TestDatabase | undefined;
  let server: TestApp | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
    await database?.dispose();
    database = undefined;
  });

  it('points the API, the article page, the feed and the head tags at the new origin', async () => {
    database = await dialectCase.create();
    server = await startTestApp(dialectCase, { PUBLIC_URL: TRIED_AT }, { database });
    const alice = await signUp(server.url, 'Alice');
    const cover = await upload(server, alice.idToken, await plainJpeg(1200, 800));
    const inline = await upload(server, alice.idToken, await plainJpeg(900, 600));
    expect(cover.startsWith(`${TRIED_AT}/images/`)).toBe(true);
    const created = await articlesApi(server.url).create(alice.idToken, {
      image: cover,
      title: 'Moving house',
      description: `Before the move.\n\n![The old kitchen](${inline})\n\nElsewhere: https://pictures.example/cat.jpg`,
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await server.close();

    server = await startTestApp(dialectCase, { PUBLIC_URL: DEPLOYED_AT }, { database });
    const moved = (url: string) => url.replace(TRIED_AT, DEPLOYED_AT);
    const article = (await articlesApi(server.url).get(id)).body;
    expect(article.image).toBe(moved(cover));
    expect(article.description).toContain(`![The old kitchen](${moved(inline)})`);
    expect(article.description).toContain('https://pictures.example/cat.jpg');
    expect(article.descriptionHtml).toContain(`src="${moved(inline)}"`);
    const everything = JSON.stringify(article) + (await articlesApi(server.url).list()).text;
    expect(everything).not.toContain(TRIED_AT);
    expect((await articlesApi(server.url).list()).body.articles[0].image).toBe(moved(cover));

    const page = await (await fetch(`${server.url}/article/${id}`)).text();
    expect(page).toContain(`<meta property="og:image" content="${moved(cover)}" />`);
    expect(page).not.toContain(TRIED_AT);

    const feed = await (await fetch(`${server.url}/feed.xml`)).text();
    expect(feed).toContain(moved(cover));
    expect(feed).not.toContain(TRIED_AT);

    // The image is still there to be fetched at its new address (here reached at the test's port).
    const picture = await fetch(moved(cover).replace(DEPLOYED_AT, server.url));
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');

    // An edit saved from the new origin keeps the images served under it. (Tokens name their
    // issuer, PUBLIC_URL: the move asks everyone to sign in again.)
    const signedIn = await identityCall(server.url, 'accounts:signInWithPassword', {
      email: alice.email,
      password: alice.password,
      returnSecureToken: true,
    });
    const edited = await articlesApi(server.url).update(signedIn.body.idToken, id, {
      image: article.image,
      title: 'Moved house',
      description: article.description,
    });
    expect(edited.status).toBe(200);
    expect(edited.body.image).toBe(moved(cover));
    expect(edited.body.descriptionHtml).toContain(`src="${moved(inline)}"`);
  });
});

describe.each(storageDatabases())('migration 0360 on $dialect', (dialectCase) => {
  let before: DatabaseBeforeMigration | undefined;

  afterEach(async () => {
    await before?.close();
  });

  it('repairs articles written with an old origin: images this site holds lose it, others keep theirs', async () => {
    before = await migratedJustBefore(dialectCase, '0360_origin_free_images');
    const { database: opened, db } = before;

    await before.addOldAuthor();
    const held = 'AAAAAAAAAAAAAAAAAAAAAA';
    const foreign = 'BBBBBBBBBBBBBBBBBBBBBB';
    await db
      .insertInto('images')
      .values({ id: held, owner_id: 'u1', width: 800, height: 600, created_at: 1 })
      .execute();
    const ours = `http://localhost:3900/images/${held}/800x600.jpg`;
    const theirs = `https://elsewhere.example/images/${foreign}/800x600.jpg`;
    await db
      .insertInto('articles')
      .values([
        {
          id: 'a1',
          image: ours,
          title: 'Old',
          description: `![x](${ours}) and ![y](${theirs})`,
          description_html: `<p><img src="${ours}" alt="x"> <img src="${theirs}" alt="y"></p>`,
          excerpt: 'and',
          author_id: 'u1',
          date: 1,
        },
        {
          id: 'a2',
          image: theirs,
          title: 'Other',
          description: 'Plain',
          description_html: '<p>Plain</p>',
          excerpt: 'Plain',
          author_id: 'u1',
          date: 2,
        },
      ])
      .execute();

    await migrateToLatest(opened);

    const rows = await db.selectFrom('articles').selectAll().orderBy('id').execute();
    const path = `/images/${held}/800x600.jpg`;
    expect(rows[0]).toMatchObject({
      image: path,
      description: `![x](${path}) and ![y](${theirs})`,
      description_html: `<p><img src="${path}" alt="x"> <img src="${theirs}" alt="y"></p>`,
    });
    expect(rows[1]).toMatchObject({ image: theirs, description: 'Plain' });
  });
});
