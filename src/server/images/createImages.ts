import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Transaction } from 'kysely';
import type { VerifyIdToken } from '../http/callerAuth.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { RateLimiter } from '../rateLimit/rateLimiter.ts';
import { createImagesRepository, deleteImagesByOwner, replaceImageUses } from './imagesRepository.ts';
import { imagesRoutes } from './imagesRoutes.ts';
import { createProcessingSlots } from './processingSlots.ts';

export interface Images {
  /** POST /api/images and GET /images/...; register without a prefix. */
  routes: FastifyPluginAsync;
  /** Removes an owner's images inside the transaction that deletes the user. */
  deleteByOwner(ownerId: string, trx: Transaction<DatabaseSchema>): Promise<void>;
  /**
   * Records which uploaded images an article shows (its cover and any image in `texts`),
   * inside the transaction that writes the article: those are kept past the first day.
   */
  recordUses(articleId: string, texts: string[], trx: Transaction<DatabaseSchema>): Promise<void>;
  /** Deletes the images older than a day that no article uses; returns how many went. */
  removeUnused(): Promise<number>;
  /** Runs removeUnused every `intervalMs` (and soon after start) until the returned stop is called. */
  startCleanup(intervalMs: number, log: FastifyBaseLogger): () => void;
}

export interface ImagesDeps {
  config: Config;
  database: Database;
  verifyIdToken: VerifyIdToken;
  rateLimiter: RateLimiter;
  clock?: (() => number) | undefined;
}

/** An upload no article uses is removed after this long (docs/product.md, Rules). */
export const UNUSED_IMAGE_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
// Decoding holds a full-size bitmap (up to 2400x2400x4 bytes) besides the upload: two at a time
// keep 4 concurrent 12-megapixel uploads well inside the 350 MB budget (docs/architecture.md) and use both cores.
const PROCESSING_SLOTS = 2;
// Bodies of up to IMAGE_MAX_BYTES are held in memory from arrival until stored.
const MAX_UPLOADS_IN_PROGRESS = 8;
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

  return {
    routes: imagesRoutes({
      repository,
      verifyIdToken: deps.verifyIdToken,
      uploadRateLimit: {
        async consume(uid) {
          const result = await deps.rateLimiter.consume(uploadRule, uid);
          return result.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: result.retryAfterSeconds };
        },
      },
      slots: createProcessingSlots(PROCESSING_SLOTS),
      maxUploadsInProgress: MAX_UPLOADS_IN_PROGRESS,
      maxBytes: deps.config.imageMaxBytes,
      publicUrl,
      clock,
    }),
    deleteByOwner: (ownerId, trx) => deleteImagesByOwner(trx, ownerId),
    async recordUses(articleId, texts, trx) {
      const ids = new Set<string>();
      for (const text of texts) for (const match of text.matchAll(usedImage)) ids.add(match[1]!);
      await replaceImageUses(trx, articleId, [...ids]);
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
