import { ImageRejectedError, processImage, type AcceptedImageType, type ProcessedImage } from './imageProcessing.ts';

/**
 * The process one upload is decoded, resized and encoded in (imageWorkers.ts forks it): it
 * takes one job over IPC, answers once and exits. Being its own process, it can be killed at
 * any instant, mid-decode, which nothing inside libvips or libjpeg allows.
 */

export interface ImageJob {
  bytes: Uint8Array;
  declaredType: AcceptedImageType;
}

export type ImageJobAnswer =
  { ok: true; image: ProcessedImage } | { ok: false; rejected: { status: 413 | 415; message: string } | undefined };

function answer(message: ImageJobAnswer): void {
  process.send!(message, () => process.disconnect());
}

// The parent gone (killed, or it killed us off the channel): nothing is left to answer.
process.once('disconnect', () => process.exit(0));
process.once('message', (job: ImageJob) => {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  processImage(bytes, job.declaredType).then(
    (image) => answer({ ok: true, image }),
    (error: unknown) =>
      answer({
        ok: false,
        rejected: error instanceof ImageRejectedError ? { status: error.status, message: error.message } : undefined,
      }),
  );
});
