import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deepPng, noisyAlphaStripesPng, plainPngWithAlpha } from '../test/support/testImages.ts';
import { median } from './load.ts';
import { phonePhoto, PHOTO_HEIGHT, PHOTO_WIDTH } from './phonePhoto.ts';
import { startAppServer } from './processes.ts';
import { watchProcessTree, type ProcessTreeMemory } from './processTreeMemory.ts';
import { signUpWriter, uploadImage } from './writer.ts';

// Image uploads against the budget (docs/architecture.md): the server and its image workers
// with 4 concurrent uploads <= 350 MB, for 12-megapixel phone photos and for the worst pictures
// accepted, and how long an upload takes. Run alone with `npm run bench:uploads`; `npm run bench`
// runs it as its last step.

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
  /** The server's RSS at start, MB. */
  idleRssMb: number;
  /** The server and its workers over the photo rounds. */
  photoMemory: ProcessTreeMemory;
  /**
   * The worst pictures accepted (images/imageProcessing.ts): 40 megapixels of 8-bit RGBA and
   * 20 megapixels of 16-bit RGBA, two of each at once from two accounts, on a fresh server.
   */
  worstCase: { wallMs: number; memory: ProcessTreeMemory };
  /** Four noisy transparent PNGs at once: libwebp's costliest content (decision 0485). */
  noisyAlpha: { wallMs: number; memory: ProcessTreeMemory };
}

async function timedUpload(origin: string, token: string, photo: Buffer): Promise<number> {
  const started = performance.now();
  await uploadImage(origin, token, photo);
  return performance.now() - started;
}

async function benchPhotos(workDir: string, photo: Buffer) {
  const server = await startAppServer(path.join(workDir, 'photos'), { RATE_LIMIT_IMAGE_UPLOAD_PER_USER: '1000000' });
  try {
    const idleRssMb = server.rssMb().rssMb;
    const stopWatching = watchProcessTree(server.child.pid!);
    const token = await signUpWriter(server.origin);
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
      singleMs: { median: median(single), all: single },
      concurrentMs: { median: median(each), max: Math.max(...each), rounds },
      idleRssMb,
      photoMemory: stopWatching(),
    };
  } finally {
    await server.stop();
  }
}

/** Four worst-case uploads at once on a fresh production server; throws unless each is stored. */
export async function benchWorstCase(workDir: string): Promise<UploadBenchResult['worstCase']> {
  const largest = await plainPngWithAlpha(6300, 6300);
  const deepest = await deepPng(4470, 4470);
  return benchFourAtOnce(path.join(workDir, 'worst'), [largest, deepest]);
}

/**
 * Four uploads at once of the noisiest transparent pictures made here (issue 23), two square
 * (2400×2400, 185 KB) and two tall (1700×2400, 128 KB, whose 1600-pixel copy has the most
 * pixels a copy can have), whose WebP encodes' memory grows with their noise and their pixels
 * (decisions 0485, 0540), on a fresh server.
 */
export async function benchNoisyAlpha(workDir: string): Promise<UploadBenchResult['worstCase']> {
  const square = await noisyAlphaStripesPng(2400, 2400);
  const tall = await noisyAlphaStripesPng(1700, 2400);
  return benchFourAtOnce(path.join(workDir, 'noisy'), [square, tall]);
}

/** Both PNGs from each of two accounts at once; throws unless each is stored. */
async function benchFourAtOnce(dataDir: string, pictures: [Buffer, Buffer]): Promise<UploadBenchResult['worstCase']> {
  const server = await startAppServer(dataDir, {
    RATE_LIMIT_IMAGE_UPLOAD_PER_USER: '1000000',
    // Four such pictures are decoded one after another: on a loaded machine that is minutes.
    IMAGE_PROCESSING_TIMEOUT_SECONDS: '300',
  });
  try {
    const stopWatching = watchProcessTree(server.child.pid!);
    const tokens = [await signUpWriter(server.origin), await signUpWriter(server.origin)];
    const started = performance.now();
    await Promise.all(
      tokens.flatMap((token) => pictures.map((picture) => uploadImage(server.origin, token, picture, 'image/png'))),
    );
    return { wallMs: performance.now() - started, memory: stopWatching() };
  } finally {
    await server.stop();
  }
}

export async function benchUploads(workDir: string, log: (line: string) => void): Promise<UploadBenchResult> {
  const photo = await phonePhoto();
  log(`Upload bench: a ${PHOTO_WIDTH}x${PHOTO_HEIGHT} JPEG of ${(photo.length / 1024 / 1024).toFixed(1)} MB`);
  const photos = await benchPhotos(workDir, photo);
  log('Upload bench: 4 concurrent worst-case PNGs (2 of 40 MP RGBA, 2 of 20 MP 16-bit RGBA)');
  const worstCase = await benchWorstCase(workDir);
  log('Upload bench: 4 concurrent PNGs of random colour-and-alpha stripes (2 of 2400x2400, 2 of 1700x2400)');
  const noisyAlpha = await benchNoisyAlpha(workDir);
  return { photoBytes: photo.length, ...photos, worstCase, noisyAlpha };
}

/** The figure judged against UPLOAD_RSS_BUDGET_MB: the largest of the three rounds' (processTreeMemory.ts). */
export function uploadPeakMb(result: UploadBenchResult): number {
  return Math.max(
    result.photoMemory.serverPlusLargestWorkerMb,
    result.worstCase.memory.serverPlusLargestWorkerMb,
    result.noisyAlpha.memory.serverPlusLargestWorkerMb,
  );
}

function describeMemory(memory: ProcessTreeMemory): string {
  const mb = (value: number) => `${Math.round(value)} MB`;
  return (
    `server peak ${mb(memory.serverPeakMb)}, workers' peaks ${memory.workerPeaksMb.map(mb).join(', ')}; ` +
    `server + largest worker ${mb(memory.serverPlusLargestWorkerMb)} (held at one instant: ${mb(memory.peakTogetherMb)})`
  );
}

export function describeUploads(result: UploadBenchResult): string[] {
  const ms = (value: number) => `${Math.round(value)} ms`;
  return [
    `| Upload | p50 | max | rounds |`,
    `|---|---:|---:|---|`,
    `| one at a time (${SINGLE_ROUNDS}x) | ${ms(result.singleMs.median)} | ${ms(Math.max(...result.singleMs.all))} | ${result.singleMs.all.map(ms).join(', ')} |`,
    `| ${CONCURRENCY} at once (${CONCURRENT_ROUNDS} rounds) | ${ms(result.concurrentMs.median)} | ${ms(result.concurrentMs.max)} | wall ${result.concurrentMs.rounds.map(ms).join(', ')} |`,
    '',
    `12-MP photos: server RSS ${Math.round(result.idleRssMb)} MB at start; ${describeMemory(result.photoMemory)}`,
    `4 worst-case PNGs at once (${ms(result.worstCase.wallMs)}): ${describeMemory(result.worstCase.memory)}`,
    `4 noisy transparent PNGs at once (${ms(result.noisyAlpha.wallMs)}): ${describeMemory(result.noisyAlpha.memory)}`,
    `Budget: server + largest worker <= ${UPLOAD_RSS_BUDGET_MB} MB: ${Math.round(uploadPeakMb(result))} MB, ${uploadPeakMb(result) <= UPLOAD_RSS_BUDGET_MB ? 'PASS' : 'FAIL'}`,
  ];
}

if (import.meta.main) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-uploads-'));
  try {
    const result = await benchUploads(workDir, console.log);
    for (const line of describeUploads(result)) console.log(line);
    process.exitCode = uploadPeakMb(result) <= UPLOAD_RSS_BUDGET_MB ? 0 : 1;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
