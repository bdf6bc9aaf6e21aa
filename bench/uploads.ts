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
  /**
   * The peak of the server's RSS plus its image worker processes' (images/imageWorkers.ts),
   * sampled every 20 ms, MB: what the machine holds for uploads, workers included.
   */
  peakTotalRssMb: number;
}

function rssKb(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // exited between listing and reading
  }
}

function childrenOf(pid: number): number[] {
  try {
    const tasks = fs.readdirSync(`/proc/${pid}/task`);
    return tasks.flatMap((task) =>
      fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** Samples the RSS of `pid` and its children together until stopped; returns the peak, MB. */
function sampleTotalRss(pid: number): () => number {
  let peakKb = 0;
  const timer = setInterval(() => {
    const total = rssKb(pid) + childrenOf(pid).reduce((sum, child) => sum + rssKb(child), 0);
    peakKb = Math.max(peakKb, total);
  }, 20);
  return () => {
    clearInterval(timer);
    return peakKb / 1024;
  };
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
    const stopSampling = sampleTotalRss(server.child.pid!);
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
      peakTotalRssMb: stopSampling(),
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
    `Server RSS: ${Math.round(result.idleRssMb)} MB at start, peak ${Math.round(result.peakRssMb)} MB; with its image workers, peak ${Math.round(result.peakTotalRssMb)} MB (budget <= ${UPLOAD_RSS_BUDGET_MB} MB)`,
  ];
}

if (import.meta.main) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-bench-uploads-'));
  try {
    const result = await benchUploads(workDir, console.log);
    for (const line of describeUploads(result)) console.log(line);
    process.exitCode = Math.max(result.peakRssMb, result.peakTotalRssMb) <= UPLOAD_RSS_BUDGET_MB ? 0 : 1;
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
