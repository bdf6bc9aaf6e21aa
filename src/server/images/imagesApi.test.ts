import http from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUploadedImageUrl, uploadedImageSrcset } from '../../shared/imageUrls.ts';
import { articlesApi, identityCall, signUp, type TestUser } from '../../../test/support/articlesTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';
import {
  exifHasGps,
  isBluish,
  isReddish,
  phonePhoto,
  pixelAt,
  plainJpeg,
  pngClaimingSize,
  transparentPng,
} from '../../../test/support/testImages.ts';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';
const IMMUTABLE = 'public, max-age=31536000, immutable';

async function upload(baseUrl: string, token: string | undefined, body: Buffer | string, contentType: string) {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${baseUrl}/api/images`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  const text = await response.text();
  let json: { url: string; width: number; height: number; detail?: string; status?: number } | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json: json! };
}

async function download(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

function expectProblem(answer: { status: number; headers: Headers; text: string }, status: number) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toBe(PROBLEM_JSON);
  const body = JSON.parse(answer.text);
  expect(body).toMatchObject({ type: 'about:blank', status, title: expect.any(String), detail: expect.any(String) });
  expect(answer.text).not.toMatch(/at .+\.ts:\d+/);
}

/** Every file served for an uploaded image: the image and each srcset copy. */
function filesOf(url: string): string[] {
  const parsed = parseUploadedImageUrl(url)!;
  const copies = uploadedImageSrcset(parsed)
    .split(', ')
    .map((candidate) => candidate.split(' ')[0]!);
  return [url, ...copies];
}

describe.each(contractDatabases())('image uploads on $dialect', (dialectCase) => {
  let server: TestApp;
  let alice: TestUser;
  const maxBytes = 300_000;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, {
      PUBLIC_URL: 'http://blog.example.test',
      IMAGE_MAX_BYTES: String(maxBytes),
      RATE_LIMIT_IMAGE_UPLOAD_PER_USER: '1000',
    });
    alice = await signUp(server.url, 'Alice');
  });
  afterAll(() => server.close());

  /** The server's URLs are under PUBLIC_URL; the test reaches the same server at its real address. */
  const local = (url: string) => url.replace('http://blog.example.test', server.url);

  it('stores a phone photo turned upright, with no EXIF, GPS or XMP in any file served', async () => {
    const photo = await phonePhoto();
    const original = await sharp(photo).metadata();
    expect(original.orientation).toBe(6);
    expect(photo.includes('InkwellTestPhone')).toBe(true);
    expect(exifHasGps(original.exif)).toBe(true);
    expect(original.xmp).toBeDefined();

    const created = await upload(server.url, alice.idToken, photo, 'image/jpeg');
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    // The answer describes the image as it is shown: turned, 300 wide and 600 high.
    expect(created.json).toEqual({ url: expect.any(String), width: 300, height: 600 });
    expect(created.headers.get('location')).toBe(created.json.url);
    expect(created.json.url).toMatch(/^http:\/\/blog\.example\.test\/images\/[A-Za-z0-9_-]{22}\/300x600\.jpg$/);

    const files = filesOf(created.json.url);
    expect(files.map((url) => url.split('/').pop())).toEqual(['300x600.jpg', '300w']);
    for (const url of files) {
      const served = await download(local(url));
      expect(served.status, url).toBe(200);
      expect(served.headers.get('cache-control')).toBe(IMMUTABLE);
      expect(served.headers.get('content-type')).toMatch(/^image\/(jpeg|webp)$/);
      const metadata = await sharp(served.bytes).metadata();
      expect(metadata.exif, url).toBeUndefined();
      expect(metadata.xmp, url).toBeUndefined();
      expect(metadata.iptc, url).toBeUndefined();
      expect(metadata.orientation, url).toBeUndefined();
      for (const secret of ['InkwellTestPhone', 'Secret Model', 'InkwellTestPerson', 'Exif\0\0', 'GPS']) {
        expect(served.bytes.includes(secret), `${url} holds ${secret}`).toBe(false);
      }
      // Upright: the red left half of the stored picture is now on top.
      expect(metadata.width, url).toBe(300);
      expect(metadata.height, url).toBe(600);
      expect(isReddish(await pixelAt(served.bytes, 150, 100)), url).toBe(true);
      expect(isBluish(await pixelAt(served.bytes, 150, 500)), url).toBe(true);
    }
  });

  it('scales large pictures to 2400 px and makes a copy at each srcset width, real widths', async () => {
    const created = await upload(server.url, alice.idToken, await plainJpeg(3000, 1500, 60), 'image/jpeg');
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ width: 2400, height: 1200 });
    const files = filesOf(created.json.url);
    expect(files.map((url) => url.split('/').pop())).toEqual(['2400x1200.jpg', '480w', '960w', '1600w', '2400w']);
    for (const url of files.slice(1)) {
      const served = await download(local(url));
      expect(served.status).toBe(200);
      const { width, height } = await sharp(served.bytes).metadata();
      const named = Number(url.split('/').pop()!.replace('w', ''));
      expect(width).toBe(named);
      expect(Math.abs(height - named / 2)).toBeLessThanOrEqual(1);
    }
    const main = await download(local(created.json.url));
    expect(await sharp(main.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 2400, height: 1200 });
  });

  it('keeps transparency in a PNG (and offers WebP copies only where they are smaller)', async () => {
    const created = await upload(server.url, alice.idToken, await transparentPng(), 'image/png');
    expect(created.status, created.text).toBe(201);
    expect(created.json.url).toMatch(/\/800x600\.png$/);
    const main = await download(local(created.json.url));
    expect(main.headers.get('content-type')).toBe('image/png');
    expect((await sharp(main.bytes).metadata()).hasAlpha).toBe(true);
    for (const url of filesOf(created.json.url).slice(1)) {
      const served = await download(local(url));
      expect(['image/webp', 'image/png']).toContain(served.headers.get('content-type'));
      expect((await sharp(served.bytes).metadata()).hasAlpha).toBe(true);
      expect(served.bytes.length).toBeLessThanOrEqual(main.bytes.length);
    }
  });

  it('accepts WebP, AVIF and GIF uploads and serves them as JPEG or PNG with WebP copies', async () => {
    const base = sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 10, g: 120, b: 200 } } });
    const cases: [string, Buffer][] = [
      ['image/webp', await base.clone().webp().toBuffer()],
      ['image/avif', await base.clone().avif().toBuffer()],
      ['image/gif', await base.clone().gif().toBuffer()],
    ];
    for (const [type, bytes] of cases) {
      const created = await upload(server.url, alice.idToken, bytes, type);
      expect(created.status, `${type}: ${created.text}`).toBe(201);
      expect(created.json).toMatchObject({ width: 640, height: 480 });
      expect(created.json.url).toMatch(/\/640x480\.jpg$/);
    }
  });

  it('reads the media type whatever its case and parameters', async () => {
    const photo = await plainJpeg(64, 48);
    for (const type of ['image/jpeg; name="a.jpg"', 'Image/JPEG']) {
      const created = await upload(server.url, alice.idToken, photo, type);
      expect(created.status, `${type}: ${created.text}`).toBe(201);
    }
  });

  it('answers with an ETag and 304 to a client that has the file', async () => {
    const created = await upload(server.url, alice.idToken, await plainJpeg(500, 400), 'image/jpeg');
    const first = await download(local(created.json.url));
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await download(local(created.json.url), { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.get('cache-control')).toBe(IMMUTABLE);
  });

  it('gives a URL that is a valid article image', async () => {
    const created = await upload(server.url, alice.idToken, await plainJpeg(800, 450), 'image/jpeg');
    const article = await articlesApi(server.url).create(alice.idToken, {
      image: created.json.url,
      title: 'With an uploaded cover',
      description: `Look: ![inside](${created.json.url})`,
    });
    expect(article.status, article.text).toBe(201);
    expect(article.body.image).toBe(created.json.url);
  });

  it('refuses anonymous and invalid callers with 401 before reading the image', async () => {
    const photo = await plainJpeg(50, 50);
    const anonymous = await upload(server.url, undefined, photo, 'image/jpeg');
    expectProblem(anonymous, 401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expectProblem(await upload(server.url, 'not-a-token', photo, 'image/jpeg'), 401);
  });

  it('refuses a decompression bomb (a tiny PNG claiming 20000x20000 pixels) with 413 from its header', async () => {
    const bomb = await pngClaimingSize(20000, 20000);
    expect(bomb.length).toBeLessThan(100);
    const metadata = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([metadata.width, metadata.height]).toEqual([20000, 20000]);
    const refused = await upload(server.url, alice.idToken, bomb, 'image/png');
    expectProblem(refused, 413);
    expect(refused.json.detail).toMatch(/40 megapixels/);
  });

  it('refuses a body over IMAGE_MAX_BYTES with 413', async () => {
    const big = Buffer.concat([await plainJpeg(100, 100), Buffer.alloc(maxBytes)]);
    const refused = await upload(server.url, alice.idToken, big, 'image/jpeg');
    expectProblem(refused, 413);
    expect(refused.json.detail).toMatch(/larger than/);
  });

  it('refuses with 415 what is not an image of the declared type', async () => {
    const png = await transparentPng(40, 40);
    const cases: [Buffer | string, string][] = [
      [png, 'image/jpeg'],
      [await plainJpeg(40, 40), 'image/webp'],
      ['just some text, not a picture', 'image/png'],
      [Buffer.alloc(0), 'image/gif'],
      [(await plainJpeg(400, 400)).subarray(0, 300), 'image/jpeg'],
      ['<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/svg+xml'],
      ['plain text', 'text/plain'],
      [png, 'application/octet-stream'],
      [JSON.stringify({ image: 'x' }), 'application/json'],
    ];
    for (const [body, type] of cases) expectProblem(await upload(server.url, alice.idToken, body, type), 415);
  });

  it('answers 404 for files that do not exist', async () => {
    const created = await upload(server.url, alice.idToken, await plainJpeg(500, 400), 'image/jpeg');
    const base = parseUploadedImageUrl(created.json.url)!.base;
    for (const path of [`${base}/960w`, `${base}/501x400.jpg`, `${base}/../x`, `${base}x/500w`]) {
      expect((await download(local(path))).status, path).toBe(404);
    }
  });

  it("turns one account's uploads away beyond its share (2 sending, 2 waiting) while another account's go through", async () => {
    const frank = await signUp(server.url, 'Frank');
    const grace = await signUp(server.url, 'Grace');
    const port = new URL(server.url).port;
    // An upload whose body never finishes arriving: it holds a place until its connection closes.
    // Only a refused upload is answered before its body ends, so the answers are the refusals.
    const stalled: http.ClientRequest[] = [];
    const answers: number[] = [];
    const stall = () => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/images',
        headers: {
          authorization: `Bearer ${frank.idToken}`,
          'content-type': 'image/jpeg',
          'content-length': '100000',
        },
      });
      stalled.push(request);
      request.on('error', () => {});
      request.on('response', (response) => answers.push(response.statusCode ?? 0));
      request.write(Buffer.alloc(10));
    };
    const photo = await plainJpeg(60, 40);
    try {
      for (let i = 0; i < 12; i++) stall();
      // Two send their bodies, two wait for a place; the other eight are turned away.
      await expect.poll(() => answers.length, { timeout: 20_000 }).toBe(8);
      expect(answers).toEqual(Array(8).fill(429));
      const busy = await upload(server.url, frank.idToken, photo, 'image/jpeg');
      expectProblem(busy, 429);
      expect(busy.json.detail).toMatch(/busy/);
      expect(busy.headers.get('retry-after')).toBe('5');
      // Another account finds the place one account may never take.
      expect((await upload(server.url, grace.idToken, photo, 'image/jpeg')).status).toBe(201);
      expect(answers).toHaveLength(8);
    } finally {
      for (const request of stalled) request.destroy();
    }
    await expect
      .poll(async () => (await upload(server.url, frank.idToken, photo, 'image/jpeg')).status, { timeout: 10_000 })
      .toBe(201);
  });

  it("removes an account's images with the account", async () => {
    const carol = await signUp(server.url, 'Carol');
    const created = await upload(server.url, carol.idToken, await plainJpeg(600, 400), 'image/jpeg');
    expect(created.status).toBe(201);
    const files = filesOf(created.json.url);
    expect((await download(local(files[0]!))).status).toBe(200);
    const deleted = await identityCall(server.url, 'accounts:delete', { idToken: carol.idToken });
    expect(deleted.status, deleted.text).toBe(200);
    for (const url of files) expect((await download(local(url))).status, url).toBe(404);
  });
});

describe.each(contractDatabases())('image upload limits on $dialect', (dialectCase) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp(dialectCase, { RATE_LIMIT_IMAGE_UPLOAD_PER_USER: '2' });
  });
  afterAll(() => server.close());

  it('rate-limits uploads per person with 429 and Retry-After', async () => {
    const dave = await signUp(server.url, 'Dave');
    const erin = await signUp(server.url, 'Erin');
    const photo = await plainJpeg(60, 40);
    expect((await upload(server.url, dave.idToken, photo, 'image/jpeg')).status).toBe(201);
    expect((await upload(server.url, dave.idToken, photo, 'image/jpeg')).status).toBe(201);
    const limited = await upload(server.url, dave.idToken, photo, 'image/jpeg');
    expectProblem(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another person is not affected.
    expect((await upload(server.url, erin.idToken, photo, 'image/jpeg')).status).toBe(201);
  });
});
