import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Transaction } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import {
  createImagesRepository,
  deleteImagesByOwner,
  replaceImageUses,
  replaceProfileImage,
} from './imagesRepository.ts';
import { newImageId } from './imageId.ts';
import { ImageRejectedError, inspectImage, processImage, type AcceptedImageType } from './imageProcessing.ts';
import { imagesRoutes } from './imagesRoutes.ts';
import { createImageWorkers } from './imageWorkers.ts';
import { createUploadQueue } from './uploadQueue.ts';

export interface Images {
  /** GET /images/...; register without a prefix. */
  routes: FastifyPluginAsync;
  /** POST /api/images, in the `/api` scope. */
  apiRoutes: FastifyPluginAsync;
  /** Removes an owner's images inside the transaction that deletes the user. */
  deleteByOwner(ownerId: string, trx: Transaction<DatabaseSchema>): Promise<void>;
  /**
   * Records which uploaded images an article shows (its cover and any image in `texts`),
   * inside the transaction that writes the article: those are kept past the first day.
   */
  recordUses(articleId: string, texts: string[], trx: Transaction<DatabaseSchema>): Promise<void>;
  /**
   * Records the upload an account shows as its profile picture (`photoUrl` as stored, any URL or
   * null), inside the transaction that changes it: it is kept past the first day.
   */
  recordProfilePicture(userId: string, photoUrl: string | null, trx: Transaction<DatabaseSchema>): Promise<void>;
  /**
   * Stores an image file an operator brings (an importer's, from a blog's image folder) as an
   * upload of `ownerId`, with its variants, as POST /api/images would; answers its URL, or null
   * when the bytes are not an accepted image. Processed in this process (the admin command's).
   */
  storeFile(ownerId: string, bytes: Buffer, createdAt: number): Promise<string | null>;
  /** Deletes the images older than a day that no article or profile uses; returns how many went. */
  removeUnused(): Promise<number>;
  /** Runs removeUnused every `intervalMs` (and soon after start) until the returned stop is called. */
  startCleanup(intervalMs: number, log: FastifyBaseLogger): () => void;
}

export interface ImagesDeps {
  config: Config;
  database: Database;
  rateLimiter: RateLimiter;
  clock?: (() => number) | undefined;
}

/** An upload no article uses is removed after this long (docs/product.md, Rules). */
export const UNUSED_IMAGE_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
// Uploads with a place (body arriving, decoding in a worker process, or being stored): the server
// holds at most this many bodies, and runs at most this many workers, each one decode at a time
// (docs/architecture.md, Budgets: 4 concurrent worst-case uploads within 350 MB). One account
// holds at most two, so a third is always free for someone else.
const UPLOAD_PLACES = { places: 3, placesPerAccount: 2, waiting: 12, waitingPerAccount: 2 } as const;
// A body must arrive within this long of its upload getting a place: a trickling client holds one no longer.
const UPLOAD_BODY_TIMEOUT_MS = 15_000;
const UPLOAD_WINDOW_MS = 60 * 60 * 1000;

export function createImages(deps: ImagesDeps): Images {
  const clock = deps.clock ?? Date.now;
  const repository = createImagesRepository(deps.database.db);
  const publicUrl = deps.config.publicUrl;
  const uploadRule = {
    name: 'images:upload',
    limit: deps.config.rateLimits.imageUploadPerUser,
    windowMs: UPLOAD_WINDOW_MS,
  };
  // The URL shape of imageUrls.ts, under this server's own origin only.
  const usedImage = new RegExp(`${escapeRegExp(publicUrl)}/images/([A-Za-z0-9_-]{22})/`, 'g');

  const removeUnused = () => repository.deleteUnusedCreatedBefore(clock() - UNUSED_IMAGE_LIFETIME_MS);

  const routes = imagesRoutes({
    repository,
    uploadRateLimit: {
      async consume(uid) {
        const result = await deps.rateLimiter.consume(uploadRule, uid);
        return result.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: result.retryAfterSeconds };
      },
    },
    queue: createUploadQueue(UPLOAD_PLACES),
    workers: createImageWorkers(deps.config.imageProcessingTimeoutSeconds * 1000),
    bodyTimeoutMs: UPLOAD_BODY_TIMEOUT_MS,
    maxBytes: deps.config.imageMaxBytes,
    publicUrl,
    clock,
  });
  return {
    routes: routes.files,
    apiRoutes: routes.upload,
    deleteByOwner: (ownerId, trx) => deleteImagesByOwner(trx, ownerId),
    async recordUses(articleId, texts, trx) {
      const ids = new Set<string>();
      for (const text of texts) for (const match of text.matchAll(usedImage)) ids.add(match[1]!);
      await replaceImageUses(trx, articleId, [...ids]);
    },
    async recordProfilePicture(userId, photoUrl, trx) {
      // Stored origin-free (decision 0300); an absolute URL of this server counts too.
      const match = photoUrl === null ? null : /^(?:https?:\/\/[^/]+)?\/images\/([A-Za-z0-9_-]{22})\//.exec(photoUrl);
      const own = match && (photoUrl!.startsWith('/') || photoUrl!.startsWith(`${publicUrl}/`));
      await replaceProfileImage(trx, userId, own ? match[1] : undefined);
    },
    async storeFile(ownerId, bytes, createdAt) {
      const declared = sniffImageType(bytes);
      if (!declared || bytes.length > deps.config.imageMaxBytes) return null;
      let processed;
      try {
        await inspectImage(bytes, declared);
        processed = await processImage(bytes, declared);
      } catch (error) {
        if (error instanceof ImageRejectedError) return null;
        throw error;
      }
      const id = newImageId();
      await repository.insert({
        id,
        ownerId,
        width: processed.width,
        height: processed.height,
        createdAt,
        files: [processed.main, ...processed.variants],
      });
      return `${publicUrl}/images/${id}/${processed.main.name}`;
    },
    removeUnused,
    startCleanup(intervalMs, log) {
      const run = () => {
        removeUnused().then(
          (removed) => {
            if (removed > 0) log.info({ removed }, 'removed unused images');
          },
          (error: unknown) => log.warn({ err: error }, 'unused image cleanup failed; next round retries'),
        );
      };
      // Every process runs it: the delete is one idempotent statement (imagesRepository.ts).
      const first = setTimeout(run, Math.min(intervalMs, 30_000));
      const every = setInterval(run, intervalMs);
      first.unref();
      every.unref();
      return () => {
        clearTimeout(first);
        clearInterval(every);
      };
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The accepted type a file's first bytes show (a file from disk has no Content-Type). */
function sniffImageType(bytes: Buffer): AcceptedImageType | null {
  if (bytes.length < 12) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.toString('latin1', 4, 8) === 'ftyp' && /^avi[fs]$/.test(bytes.toString('latin1', 8, 12)))
    return 'image/avif';
  return null;
}
