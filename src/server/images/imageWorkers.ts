import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import {
  ImageRejectedError,
  notDecodable,
  type AcceptedImageType,
  type ImageFile,
  type ProcessedImage,
} from './imageProcessing.ts';
import type { ImageJob, ImageJobAnswer } from './imageWorker.ts';

/** Why a job ended without an answer: its client left, or the server is shutting down. */
export class ImageJobStoppedError extends Error {
  override name = 'ImageJobStoppedError';
  readonly reason: 'client-gone' | 'shutdown';
  constructor(reason: 'client-gone' | 'shutdown') {
    super(`image processing stopped: ${reason}`);
    this.reason = reason;
  }
}

export interface ImageWorkers {
  /**
   * Decodes, resizes and encodes `bytes` in a process of its own once memory allows
   * (`decodedBytes`, from inspectImage), killed when `timeoutMs` passes (ImageRejectedError
   * 413), when `signal` aborts (the client left: also while waiting) or on stopAll.
   */
  process(
    bytes: Buffer,
    declaredType: AcceptedImageType,
    decodedBytes: number,
    signal: AbortSignal,
  ): Promise<ProcessedImage>;
  /** Kills every running worker (shutdown): their jobs end with ImageJobStoppedError('shutdown'). */
  stopAll(): void;
}

// In the sources the worker is imageWorker.ts beside this file; in the production bundle
// (scripts/serverBuild.ts) it is imageWorker.js beside main.js, where this code then lives.
const fromSources = import.meta.filename.endsWith('.ts');
const workerFile = path.join(import.meta.dirname, fromSources ? 'imageWorker.ts' : 'imageWorker.js');
// The worker's JavaScript is a few calls: pixels and files live in Buffers and libvips. A small
// heap, and no optimising compiler (--lite-mode: 9 MB less resident; it turns WebAssembly off,
// which Node's TypeStrip needs, so only the bundle's plain JavaScript worker gets it).
const WORKER_EXEC_ARGV = [
  '--max-old-space-size=64',
  '--max-semi-space-size=1',
  // imageProcessing.ts frees the decoded pixels before the largest encode (decision 0480).
  '--expose-gc',
  ...(fromSources ? [] : ['--lite-mode']),
];
/**
 * glibc's allocator in the worker, whatever the server was started with (decision 0480). A
 * decode and its encodes allocate and free buffers of megabytes to tens of megabytes, one after
 * another. By default glibc raises its mmap threshold to the size of each large buffer freed,
 * so the next ones come from its heap, where freed space stays mapped beside new buffers: with
 * it fixed at 128 KiB every such buffer is its own mapping, returned to the system when freed.
 * One arena: libvips's threads then share one heap instead of keeping freed space in two.
 * Measured on a 40-megapixel RGBA PNG: 207 MB peak in the worker by default, 167 MB with both.
 */
const WORKER_MALLOC_ENV = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072' } as const;

/**
 * Workers' memory, in shares. A worker holds about 60 MB of Node and libvips before its picture,
 * and measured peaks (bench/README.md) are about 115 MB for a 12-megapixel JPEG and 146 MB for a
 * 40-megapixel RGBA PNG: beside the server's 165–185 MB, only one such worker fits the 350 MB
 * budget. A picture decoding to at most SMALL_DECODED_BYTES (a megapixel of RGBA: about 75 MB
 * in its worker) takes one share, so two small ones run at once; any other takes both.
 */
const WORKER_SHARES = 2;
const SMALL_DECODED_BYTES = 1_000_000 * 4;

export function createImageWorkers(timeoutMs: number): ImageWorkers {
  const running = new Set<(reason: 'shutdown') => void>();
  const memory = createShares(WORKER_SHARES);

  return {
    async process(bytes, declaredType, decodedBytes, signal) {
      const shares = decodedBytes > SMALL_DECODED_BYTES ? WORKER_SHARES : 1;
      const release = await memory.take(shares, signal);
      if (!release) throw new ImageJobStoppedError('client-gone');
      try {
        return await runWorker(bytes, declaredType, signal);
      } finally {
        release();
      }
    },
    stopAll() {
      for (const stop of [...running]) stop('shutdown');
    },
  };

  function runWorker(bytes: Buffer, declaredType: AcceptedImageType, signal: AbortSignal): Promise<ProcessedImage> {
    return new Promise<ProcessedImage>((resolve, reject) => {
      if (signal.aborted) return reject(new ImageJobStoppedError('client-gone'));
      const child: ChildProcess = fork(workerFile, [], {
        execArgv: WORKER_EXEC_ARGV,
        env: { ...process.env, ...WORKER_MALLOC_ENV },
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        running.delete(stop);
        // Killing a finished worker is harmless; an unfinished one stops at once, mid-decode.
        child.kill('SIGKILL');
        // The job ends (and its memory share passes on) only once the process is gone.
        if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) outcome();
        else void exited.then(outcome);
      };
      const stop = (reason: 'client-gone' | 'shutdown') => finish(() => reject(new ImageJobStoppedError(reason)));
      const onAbort = () => stop('client-gone');
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new ImageRejectedError(
                413,
                `The image took longer than ${Math.round(timeoutMs / 1000)} seconds to process; send a smaller or simpler image.`,
              ),
            ),
          ),
        timeoutMs,
      );
      signal.addEventListener('abort', onAbort, { once: true });
      running.add(stop);
      child.once('message', (message: ImageJobAnswer) =>
        finish(() => {
          if (message.ok) resolve(fromWire(message.image));
          else if (message.rejected) reject(new ImageRejectedError(message.rejected.status, message.rejected.message));
          else reject(new Error('the image worker failed'));
        }),
      );
      child.once('error', (error) => finish(() => reject(error)));
      // A worker that dies without answering (out of memory, crashed in a decoder) read no image.
      child.once('exit', () => finish(() => reject(notDecodable(declaredType))));
      const job: ImageJob = { bytes, declaredType };
      child.send(job);
    });
  }
}

/** `total` shares handed out first come, first served; a waiter aborted by `signal` leaves the line. */
function createShares(total: number) {
  let free = total;
  const line: { shares: number; admit: () => void }[] = [];
  const admitNext = () => {
    while (line.length > 0 && line[0]!.shares <= free) {
      const next = line.shift()!;
      free -= next.shares;
      next.admit();
    }
  };
  return {
    take(shares: number, signal: AbortSignal): Promise<(() => void) | undefined> {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        free += shares;
        admitNext();
      };
      if (line.length === 0 && shares <= free) {
        free -= shares;
        return Promise.resolve(release);
      }
      return new Promise((resolve) => {
        const entry = {
          shares,
          admit: () => {
            signal.removeEventListener('abort', leave);
            resolve(release);
          },
        };
        const leave = () => {
          line.splice(line.indexOf(entry), 1);
          admitNext();
          resolve(undefined);
        };
        line.push(entry);
        signal.addEventListener('abort', leave, { once: true });
      });
    },
  };
}

// Buffers cross the IPC channel as plain Uint8Arrays.
function fromWire(image: ProcessedImage): ProcessedImage {
  const file = (f: ImageFile): ImageFile => ({
    ...f,
    bytes: Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength),
  });
  return { ...image, main: file(image.main), variants: image.variants.map(file) };
}
