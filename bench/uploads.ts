import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './load.ts';
import { phonePhoto, PHOTO_HEIGHT, PHOTO_WIDTH } from './phonePhoto.ts';
import { startAppServer } from './processes.ts';
import { signUpWriter, uploadImage } from './writer.ts';

// Image uploads against the budget (docs/architecture.md): server RSS with 4 concurrent 12-megapixel uploads
// <= 350 MB, and how long an upload takes. Run alone with `npm run bench:uploads`; `npm run bench`
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
  /** The server's RSS at start and its peak (VmHWM) after all uploads, MB. */
  idleRssMb: number;
  peakRssMb: number;
}

async function timedUpload(origin: string, token: string, photo: Buffer): Promise<number> {
  const started = performance.now();
  await uploadImage(origin, token, photo);
  return performance.now() - started;
}

export async function benchUploads(workDir: string, log: (line: string) => void): Promise<UploadBenchResult> {
  const photo = await phonePhoto();
  log(`Upload bench: a ${PHOTO_WIDTH}x${PHOTO_HEIGHT} JPEG of ${(photo.length / 1024 / 1024).toFixed(1)} MB`);
  const server = await startAppServer(path.join(workDir, 'uploads'), { RATE_LIMIT_IMAGE_UPLOAD_PER_USER: '1000000' });
  try {
    const idleRssMb = server.rssMb().rssMb;
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
