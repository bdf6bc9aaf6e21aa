import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, identityCall, sampleArticle, signUp } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import { plainJpeg } from '../../../test/support/testImages.ts';
import { AUTHOR_BIO_MAX_LENGTH } from '../../shared/authorProfile.ts';

const HOUR = 60 * 60 * 1000;

describe.each(contractDatabases())('author profiles on $dialect', (dialectCase) => {
  let server: TestApp;
  let now = Date.now();

  beforeAll(async () => {
    server = await startTestApp(
      dialectCase,
      { RATE_LIMIT_ARTICLE_CREATE_PER_USER: '1000' },
      { clock: () => now, imageCleanupIntervalMs: 50 },
    );
  });
  afterAll(() => server.close());

  const profile = async (key: string) => {
    const response = await fetch(`${server.url}/api/authors/${encodeURIComponent(key)}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const putBio = async (uid: string, token: string | null, body: unknown) => {
    const response = await fetch(`${server.url}/api/authors/${encodeURIComponent(uid)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const page = (path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });
  const upload = async (token: string) => {
    const response = await fetch(`${server.url}/api/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
      body: new Uint8Array(await plainJpeg(640, 640)),
    });
    expect(response.status).toBe(201);
    const { url } = (await response.json()) as { url: string };
    // PUBLIC_URL defaults to http://localhost:PORT; the test reaches the same server by IP.
    return { url, local: url.replace(/^http:\/\/localhost:\d+/, server.url) };
  };
  const storedPhoto = async (uid: string) =>
    (await server.database.db.selectFrom('users').select('photo_url').where('id', '=', uid).executeTakeFirstOrThrow())
      .photo_url;

  it('gives each author a slug from the name, unique, and answers the uid URL with 301 to it', async () => {
    const first = await signUp(server.url, 'Margit Ås');
    const second = await signUp(server.url, 'Margit Ås');
    expect((await profile(first.uid)).body).toMatchObject({ uid: first.uid, name: 'Margit Ås', slug: 'margit-as' });
    expect((await profile(second.uid)).body).toMatchObject({ slug: 'margit-as-2', bio: '', photoUrl: null });

    const byUid = await page(`/author/${first.uid}`);
    expect(byUid.status).toBe(301);
    expect(byUid.headers.get('location')).toBe('/author/margit-as');
    const bySlug = await page('/author/margit-as');
    expect(bySlug.status).toBe(200);
    const html = await bySlug.text();
    expect(html).toContain(`<link rel="canonical" href="${server.config.publicUrl}/author/margit-as" />`);
    expect((await page('/author/nobody-has-this-name')).status).toBe(404);
    expect((await profile('nobody-has-this-name')).status).toBe(404);

    // The API keeps uids: articles name the author by uid, with the slug for links.
    const api = articlesApi(server.url);
    const created = await api.create(second.idToken, sampleArticle('By the second Margit'));
    expect(created.body).toMatchObject({ authorId: second.uid, authorSlug: 'margit-as-2', authorPhotoUrl: null });
    const listed = await api.list(`?author=${encodeURIComponent(second.uid)}`);
    expect(listed.body.articles.map((article: { id: string }) => article.id)).toEqual([created.body.id]);
    expect((await profile('margit-as-2')).body).toMatchObject({ uid: second.uid, articleCount: 1 });

    // Sitemaps link the slug URL.
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).toContain('/author/margit-as-2</loc>');
    expect(sitemap).not.toContain(`/author/${second.uid}</loc>`);
  });

  it('gives a renamed author a new slug; the old one redirects to it', async () => {
    const author = await signUp(server.url, 'Hanne Berg');
    expect((await profile(author.uid)).body.slug).toBe('hanne-berg');
    const renamed = await identityCall(server.url, 'accounts:update', {
      idToken: author.idToken,
      displayName: 'Hanne Dahl',
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await profile(author.uid)).body.slug).toBe('hanne-dahl');
    const old = await page('/author/hanne-berg');
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe('/author/hanne-dahl');
    expect((await page('/author/hanne-dahl')).status).toBe(200);
    // The old slug stays theirs: someone new named Hanne Berg gets another.
    const newcomer = await signUp(server.url, 'Hanne Berg');
    expect((await profile(newcomer.uid)).body.slug).toBe('hanne-berg-2');
  });

  it('sets a bio of up to the limit for the author only, and refuses anything else clearly', async () => {
    const author = await signUp(server.url, 'Bio Writer');
    const other = await signUp(server.url, 'Someone Else');
    const bio = `Cooks fish on the west coast.\nWrites about it. ${'x'.repeat(AUTHOR_BIO_MAX_LENGTH - 50)}`;
    const saved = await putBio(author.uid, author.idToken, { bio: `  ${bio}  ` });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ uid: author.uid, bio });
    expect((await profile(author.uid)).body.bio).toBe(bio);
    const html = await (await fetch(`${server.url}/author/bio-writer`)).text();
    expect(html).toContain('Cooks fish on the west coast.');

    const tooLong = await putBio(author.uid, author.idToken, { bio: 'é'.repeat(AUTHOR_BIO_MAX_LENGTH + 1) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([
      { field: 'bio', message: `Bio must be at most ${AUTHOR_BIO_MAX_LENGTH} characters.` },
    ]);
    expect((await putBio(author.uid, author.idToken, { bio: 42 })).status).toBe(400);
    expect((await putBio(author.uid, author.idToken, { bio: 'ok', slug: 'chosen' })).status).toBe(400);
    expect((await putBio(author.uid, author.idToken, ['bio'])).status).toBe(400);
    expect((await putBio(author.uid, other.idToken, { bio: 'Not mine' })).status).toBe(403);
    expect((await putBio(author.uid, null, { bio: 'Anonymous' })).status).toBe(401);
    // Nothing of the refused writes stuck.
    expect((await profile(author.uid)).body.bio).toBe(bio);
  });

  it('stores an uploaded profile picture without its origin, answers it absolute, and shows it in bylines', async () => {
    const author = await signUp(server.url, 'Picture Person');
    const picture = await upload(author.idToken);
    const updated = await identityCall(server.url, 'accounts:update', {
      idToken: author.idToken,
      photoUrl: picture.url,
      returnSecureToken: true,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.photoUrl).toBe(picture.url);
    expect(await storedPhoto(author.uid)).toBe(new URL(picture.url).pathname);

    const lookup = await identityCall(server.url, 'accounts:lookup', { idToken: author.idToken });
    expect(lookup.body.users[0].photoUrl).toBe(picture.url);
    expect((await profile(author.uid)).body.photoUrl).toBe(picture.url);
    const { body: article } = await articlesApi(server.url).create(author.idToken, sampleArticle('With a face'));
    expect(article.authorPhotoUrl).toBe(picture.url);

    // Any other URL is kept as given (the Firebase SDK's updateProfile({photoURL}) takes any).
    const elsewhere = 'https://avatars.example/me.png';
    await identityCall(server.url, 'accounts:update', { idToken: author.idToken, photoUrl: elsewhere });
    expect(await storedPhoto(author.uid)).toBe(elsewhere);
    expect(
      (await identityCall(server.url, 'accounts:lookup', { idToken: author.idToken })).body.users[0].photoUrl,
    ).toBe(elsewhere);
  });

  it('keeps an upload used as a profile picture past the first day, and lets it go once replaced', async () => {
    const author = await signUp(server.url, 'Keeps Face');
    const [picture, unused] = [await upload(author.idToken), await upload(author.idToken)];
    const set = await identityCall(server.url, 'accounts:update', { idToken: author.idToken, photoUrl: picture.url });
    expect(set.status, set.text).toBe(200);

    now += 25 * HOUR;
    await expect.poll(async () => (await fetch(unused.local)).status, { timeout: 10_000 }).toBe(404);
    expect((await fetch(picture.local)).status).toBe(200);

    // Removed from the profile (deleteAttribute PHOTO_URL), it is unused: the next round takes it.
    const signedIn = await identityCall(server.url, 'accounts:signInWithPassword', {
      email: author.email,
      password: author.password,
      returnSecureToken: true,
    });
    const removed = await identityCall(server.url, 'accounts:update', {
      idToken: signedIn.body.idToken,
      deleteAttribute: ['PHOTO_URL'],
    });
    expect(removed.status, removed.text).toBe(200);
    await expect.poll(async () => (await fetch(picture.local)).status, { timeout: 10_000 }).toBe(404);
  });
});
