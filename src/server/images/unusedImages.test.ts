import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, signUp } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { plainJpeg } from '../../../test/support/testImages.ts';
import { createImages, UNUSED_IMAGE_LIFETIME_MS } from './createImages.ts';
import { createRateLimiter } from '../rateLimit/rateLimiter.ts';

const HOUR = 60 * 60 * 1000;

describe.each(storageDatabases())('unused uploads on $dialect', (dialectCase) => {
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

  const uploadAs = async (token: string) => {
    const response = await fetch(`${server.url}/api/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
      body: new Uint8Array(await plainJpeg(520, 300)),
    });
    expect(response.status).toBe(201);
    const { url } = (await response.json()) as { url: string };
    // PUBLIC_URL defaults to http://localhost:PORT; the test reaches the same server by IP.
    return { url, local: url.replace(/^http:\/\/localhost:\d+/, server.url) };
  };
  const status = async (url: string) => (await fetch(url)).status;

  it('removes, a day after upload, the images no article uses, and keeps covers and body images', async () => {
    const author = await signUp(server.url, 'Uploader');
    const api = articlesApi(server.url);
    const [unused, cover, inBody, dropped, ofDeleted] = [
      await uploadAs(author.idToken),
      await uploadAs(author.idToken),
      await uploadAs(author.idToken),
      await uploadAs(author.idToken),
      await uploadAs(author.idToken),
    ];
    const kept = await api.create(author.idToken, {
      image: cover.url,
      title: 'Uses two uploads',
      description: `A picture in the text:\n\n![a picture](${inBody.url})`,
    });
    expect(kept.status, kept.text).toBe(201);
    const edited = await api.create(author.idToken, { image: dropped.url, title: 'Edited later', description: 'x' });
    expect(
      (await api.update(author.idToken, edited.body.id, { image: cover.url, title: 'Edited', description: 'y' }))
        .status,
    ).toBe(200);
    const removed = await api.create(author.idToken, { image: ofDeleted.url, title: 'Deleted', description: 'z' });
    expect((await api.remove(author.idToken, removed.body.id)).status).toBe(204);

    // Nothing goes in the first day, used or not.
    now += 23 * HOUR;
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const image of [unused, cover, inBody, dropped, ofDeleted]) expect(await status(image.local)).toBe(200);

    now += 2 * HOUR;
    const fresh = await uploadAs((await signUp(server.url, 'Later')).idToken);
    await expect.poll(() => status(unused.local), { timeout: 10_000 }).toBe(404);
    await expect.poll(() => status(ofDeleted.local), { timeout: 10_000 }).toBe(404);
    await expect.poll(() => status(dropped.local), { timeout: 10_000 }).toBe(404);
    expect(await status(cover.local)).toBe(200);
    expect(await status(inBody.local)).toBe(200);
    // Less than a day old: kept although unused.
    expect(await status(fresh.local)).toBe(200);
  });

  it('removes each unused image once when several processes clean up at the same moment', async () => {
    const owner = await signUp(server.url, 'Racer');
    for (let i = 0; i < 6; i++) await uploadAs(owner.idToken);
    const cleanerAt = (time: number) =>
      createImages({
        config: server.config,
        database: server.database,
        rateLimiter: createRateLimiter(server.database),
        clock: () => time,
      });
    const later = now + UNUSED_IMAGE_LIFETIME_MS + HOUR;
    const countImages = async () =>
      Number(
        (
          await server.database.db
            .selectFrom('images')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await countImages();
    const removed = await Promise.all([1, 2, 3].map(() => cleanerAt(later).removeUnused()));
    // The server's own job (at its clock, a day earlier) keeps them; here each goes exactly once:
    // the six just uploaded and the earlier test's unused one, and no image any article uses.
    const total = removed.reduce((sum, count) => sum + count, 0);
    expect(total).toBe(7);
    expect(await countImages()).toBe(before - total);
    expect(await cleanerAt(later).removeUnused()).toBe(0);
  });

  // Review finding 8: deleting an account took the images other people's articles show.
  it('keeps, when its owner deletes the account, an image another person’s article shows', async () => {
    const owner = await signUp(server.url, 'Leaver');
    const other = await signUp(server.url, 'Stayer');
    const [shared, ownOnly] = [await uploadAs(owner.idToken), await uploadAs(owner.idToken)];
    const api = articlesApi(server.url);
    const borrowed = await api.create(other.idToken, {
      image: shared.url,
      title: 'Borrows a picture',
      description: `![again](${shared.url})`,
    });
    expect(borrowed.status, borrowed.text).toBe(201);
    const deleteAccount = (idToken: string) =>
      fetch(`${server.url}/identity/v1/accounts:delete?key=test-key`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ idToken }),
      });

    expect((await deleteAccount(owner.idToken)).status).toBe(200);
    expect(await status(shared.local)).toBe(200);
    expect(await status(ownOnly.local)).toBe(404);
    expect((await api.get(borrowed.body.id)).body.image).toBe(shared.url);

    // Once no article shows it, it goes with the account of the one that did.
    expect((await deleteAccount(other.idToken)).status).toBe(200);
    expect(await status(shared.local)).toBe(404);
  });
});
