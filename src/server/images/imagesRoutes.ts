import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { callerAuthentication, callerOf, sendInvalidToken, type VerifyIdToken } from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import {
  ACCEPTED_IMAGE_TYPES,
  ImageRejectedError,
  inspectImage,
  processImage,
  type AcceptedImageType,
} from './imageProcessing.ts';
import { isImageId, newImageId } from './imageId.ts';
import { OwnerGoneError, type ImagesRepository } from './imagesRepository.ts';
import type { ProcessingSlots } from './processingSlots.ts';

export interface UploadRateLimit {
  /** Counts one upload by `uid`; the seconds to wait when they have uploaded too many lately. */
  consume(uid: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}

export interface ImagesRoutesDeps {
  repository: ImagesRepository;
  verifyIdToken: VerifyIdToken;
  uploadRateLimit: UploadRateLimit;
  /** Bounds how many uploads are decoded at once (memory: docs/architecture.md, Budgets). */
  slots: ProcessingSlots;
  /** Uploads in progress (body arriving, waiting or decoding) beyond which new ones are turned away. */
  maxUploadsInProgress: number;
  maxBytes: number;
  /** Origin without a trailing slash: image URLs are absolute under it. */
  publicUrl: string;
  clock: () => number;
}

/** Uploaded files never change: their URL names new bytes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const FILE_NAME = /^(?:[1-9][0-9]{0,3}x[1-9][0-9]{0,3}\.(?:jpg|png)|[1-9][0-9]{0,3}w)$/;
const TYPE_LIST = Object.keys(ACCEPTED_IMAGE_TYPES).join(', ');

/** `POST /api/images` and `GET /images/:id/:name`; register without a prefix. */
export function imagesRoutes(deps: ImagesRoutesDeps): FastifyPluginAsync {
  const { repository, verifyIdToken, uploadRateLimit, slots, publicUrl } = deps;
  let uploadsInProgress = 0;
  const authenticateCaller = callerAuthentication(verifyIdToken);

  /**
   * Everything that can refuse an upload without its body runs before the body is read: an
   * anonymous or rate-limited client makes the server buffer nothing.
   */
  async function admitUpload(request: FastifyRequest, reply: FastifyReply) {
    await authenticateCaller(request, reply);
    if (reply.sent) return reply;
    const caller = callerOf(request);
    const limited = await uploadRateLimit.consume(caller.uid);
    if (!limited.allowed) {
      reply.header('retry-after', String(limited.retryAfterSeconds));
      return sendProblem(reply, 429, 'You have uploaded many images in a short time. Please wait and try again.');
    }
    if (uploadsInProgress >= deps.maxUploadsInProgress) {
      reply.header('retry-after', '5');
      return sendProblem(reply, 429, 'The server is busy with other uploads. Please try again in a moment.');
    }
    uploadsInProgress += 1;
    // 'close' comes once per response, sent or abandoned.
    reply.raw.once('close', () => {
      uploadsInProgress -= 1;
    });
    return undefined;
  }

  return async (app: FastifyInstance) => {
    await app.register(async (upload) => {
      upload.decorateRequest('caller', null);
      // Only the listed image types are read, as raw bytes; anything else is a 415 before reading.
      upload.removeAllContentTypeParsers();
      upload.addContentTypeParser(
        Object.keys(ACCEPTED_IMAGE_TYPES),
        { parseAs: 'buffer', bodyLimit: deps.maxBytes },
        (_request, body, done) => done(null, body),
      );
      upload.setErrorHandler((error: FastifyError, _request, reply) => {
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
          return sendProblem(reply, 413, `The image is larger than ${formatBytes(deps.maxBytes)}.`);
        }
        if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
          return sendProblem(reply, 415, `Send the image itself as the body, with Content-Type ${TYPE_LIST}.`);
        }
        throw error;
      });

      upload.post(
        '/api/images',
        { bodyLimit: deps.maxBytes, onRequest: admitUpload, compress: false },
        async (request, reply) => {
          const { uid } = callerOf(request);
          const declared = mediaType(request.headers['content-type']) as AcceptedImageType;
          const bytes = request.body as Buffer;
          let processed;
          try {
            // The header check needs no slot: a decompression bomb is refused at once, even when busy.
            await inspectImage(bytes, declared);
            processed = await slots.run(() => processImage(bytes, declared));
          } catch (error) {
            if (error instanceof ImageRejectedError) return sendProblem(reply, error.status, error.message);
            throw error;
          }
          const id = newImageId();
          try {
            await repository.insert({
              id,
              ownerId: uid,
              width: processed.width,
              height: processed.height,
              createdAt: deps.clock(),
              files: [processed.main, ...processed.variants],
            });
          } catch (error) {
            if (!(error instanceof OwnerGoneError)) throw error;
            return sendInvalidToken(reply);
          }
          const url = `${publicUrl}/images/${id}/${processed.main.name}`;
          return reply
            .code(201)
            .header('location', url)
            .header('cache-control', 'no-store')
            .send({ url, width: processed.width, height: processed.height });
        },
      );
    });

    app.get<{ Params: { id: string; name: string } }>(
      '/images/:id/:name',
      { compress: false },
      async (request, reply) => {
        const { id, name } = request.params;
        const file = isImageId(id) && FILE_NAME.test(name) ? await repository.findFile(id, name) : undefined;
        if (!file) return sendProblem(reply, 404, 'There is no image at this address.');
        const etag = `"${file.etag}"`;
        reply.header('cache-control', IMMUTABLE).header('etag', etag);
        if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
        return reply.type(file.contentType).send(file.bytes);
      },
    );
  };
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
