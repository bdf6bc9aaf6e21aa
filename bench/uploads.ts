import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { median } from './load.ts';
import { startAppServer } from './processes.ts';

// Image uploads against DESIGN.md §6: server RSS with 4 concurrent 12-megapixel uploads
// <= 350 MB, and how long an upload takes. Run alone with `npm run bench:uploads`; `npm run bench`
// runs it as its last step.

const PHOTO_WIDTH = 4000;
const PHOTO_HEIGHT = 3000;
const SINGLE_ROUNDS = 3;
const CONCURRENT_ROUNDS = 2;
const CONCURRENCY = 4;
export const UPLOAD_RSS_BUDGET_MB = 350;

export interface UploadBenchResult {
  photoBytes: number;
  /** One upload at a time: median and all, ms. */
  singleMs: { median: number; all: number[] };
  /** Four at once: each upload's time, and the wall time of each round, ms. */
  concurrentMs: { median: number; max: number; rounds: number[] };
  /** The server's RSS at start and its peak (VmHWM) after all uploads, MB. */
  idleRssMb: number;
  peakRssMb: number;
}

/**
 * A 12-megapixel stand-in for a phone photo: smooth light and shade with fine grain, so it
 * encodes to a few MB of JPEG as real photos do (a flat colour would be a few KB).
 */
async function phonePhoto(): Promise<Buffer> {
  const grain = await sharp({
    create: {
      width: PHOTO_WIDTH,
      height: PHOTO_HEIGHT,
      channels: 3,
      background: { r: 128, g: 128, b: 128 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .blur(0.6)
    .png({ compressionLevel: 1 })
    .toBuffer();
  const shade = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}">` +
      '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e8a04a"/>' +
      '<stop offset="1" stop-color="#2a4d6e"/></linearGradient></defs>' +
      `<rect width="100%" height="100%" fill="url(#g)"/><circle cx="2900" cy="800" r="420" fill="#fbe7b5"/></svg>`,
  );
  return sharp(shade)
    .composite([{ input: grain, blend: 'soft-light' }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

async function signUp(origin: string): Promise<string> {
  const response = await fetch(`${origin}/identity/v1/accounts:signUp?key=bench`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `uploader-${Date.now()}@example.com`,
      password: 'correct horse battery staple',
      returnSecureToken: true,
    }),
  });
  if (!response.ok) throw new Error(`sign-up failed: ${response.status}`);
  return ((await response.json()) as { idToken: string }).idToken;
}

async function timedUpload(origin: string, token: string, photo: Buffer): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${origin}/api/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/jpeg' },
    body: new Uint8Array(photo),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${text}`);
  return performance.now() - started;
}

export async function benchUploads(workDir: string, log: (line: string) => void): Promise<UploadBenchResult> {
  const photo = await phonePhoto();
  log(`Upload bench: a ${PHOTO_WIDTH}x${PHOTO_HEIGHT} JPEG of ${(photo.length / 1024 / 1024).toFixed(1)} MB`);
  const server = await startAppServer(path.join(workDir, 'uploads'), { RATE_LIMIT_IMAGE_UPLOAD_PER_USER: '1000000' });
  try {
    const idleRssMb = server.rssMb().rssMb;
    const token = await signUp(server.origin);
    const single: number[] = [];
    for (let i = 0; i < SINGLE_ROUNDS; i++) single.push(await timedUpload(server.origin, token, photo));
    const each: number[] = [];
    const rounds: number[] = [];
    for (let i = 0; i < CONCURRENT_ROUNDS; i++) {
      const started = performance.now();
      each.push(
        ...(await Promise.all(Array.from({ length: CONCURRENCY }, () => timedUpload(server.origin, token, photo)))),
      );
      rounds.push(performance.now() - started);
    }
    return {
      photoBytes: photo.length,
      singleMs: { median: median(single), all: single },
      concurrentMs: { median: median(each), max: Math.max(...each), rounds },
      idleRssMb,
      peakRssMb: server.peakRssMb(),
    };
  } finally {
    await server.stop();
  }
}

export function describeUploads(result: UploadBenchResult): string[] {
  const ms = (value: number) => `${Math.round(value)} ms`;
  return [
    `| Upload | p50 | max | rounds |`,
    `|---|---:|---:|---|`,
    `| one at a time (${SINGLE_ROUNDS}x) | ${ms(result.singleMs.median)} | ${ms(Math.max(...result.singleMs.all))} | ${result.singleMs.all.map(ms).join(', ')} |`,
    `| ${CONCURRENCY} at once (${CONCURRENT_ROUNDS} rounds) | ${ms(result.concurrentMs.median)} | ${ms(result.concurrentMs.max)} | wall ${result.concurrentMs.rounds.map(ms).join(', ')} |`,
    '',
    `Server RSS: ${Math.round(result.idleRssMb)} MB at start, peak ${Math.round(result.peakRssMb)} MB (budget <= ${UPLOAD_RSS_BUDGET_MB} MB)`,
  ];
}

if (import.meta.main) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-uploads-'));
  try {
    const result = await benchUploads(workDir, console.log);
    for (const line of describeUploads(result)) console.log(line);
    process.exitCode = result.peakRssMb <= UPLOAD_RSS_BUDGET_MB ? 0 : 1;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
