import type { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf, sendInvalidToken } from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import { ACCEPTED_IMAGE_TYPES, ImageRejectedError, inspectImage, type AcceptedImageType } from './imageProcessing.ts';
import { isImageId, newImageId } from './imageId.ts';
import { OwnerGoneError, type ImagesRepository } from './imagesRepository.ts';
import { ImageJobStoppedError, type ImageWorkers } from './imageWorkers.ts';
import { readUploadBody, UploadBodyError } from './uploadBody.ts';
import type { UploadQueue } from './uploadQueue.ts';

export interface UploadRateLimit {
  /** Counts one upload by `uid`; the seconds to wait when they have uploaded too many lately. */
  consume(uid: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}

export interface ImagesRoutesDeps {
  repository: ImagesRepository;
  uploadRateLimit: UploadRateLimit;
  /** Who may send a body now, fairly between accounts (memory: docs/architecture.md, Budgets). */
  queue: UploadQueue;
  /** Where pixels are decoded: processes killed on a time limit, a client gone, or shutdown. */
  workers: ImageWorkers;
  /** How long a body may take to arrive once its upload has a place. */
  bodyTimeoutMs: number;
  maxBytes: number;
  /** Origin without a trailing slash: image URLs are absolute under it. */
  publicUrl: string;
  clock: () => number;
}

/** Uploaded files never change: their URL names new bytes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const FILE_NAME = /^(?:[1-9][0-9]{0,3}x[1-9][0-9]{0,3}\.(?:jpg|png)|[1-9][0-9]{0,3}w)$/;
const TYPE_LIST = Object.keys(ACCEPTED_IMAGE_TYPES).join(', ');

/** The uploader of an admitted upload, and the signal that fires when its client leaves. */
const admitted = new WeakMap<FastifyRequest, { uid: string; clientGone: AbortSignal }>();

/**
 * `upload`: `POST /api/images`, in the `/api` scope (http/apiScope.ts); `files`:
 * `GET /images/:id/:name`, registered without a prefix.
 */
export function imagesRoutes(deps: ImagesRoutesDeps): { upload: FastifyPluginAsync; files: FastifyPluginAsync } {
  const { repository, uploadRateLimit, queue, workers, publicUrl } = deps;
  const tooLarge = `The image is larger than ${formatBytes(deps.maxBytes)}.`;

  /**
   * Everything that can refuse an upload without its body runs before the body is read: an
   * anonymous, rate-limited or queued client makes the server buffer nothing.
   */
  async function admitUpload(request: FastifyRequest, reply: FastifyReply) {
    // The `/api` scope's token check, here at onRequest: nothing of the body is read before it.
    await request.server.authenticateCaller(request, reply);
    if (reply.sent) return reply;
    const caller = callerOf(request);
    if (Number(request.headers['content-length'] ?? 0) > deps.maxBytes) {
      reply.header('connection', 'close');
      return sendProblem(reply, 413, tooLarge);
    }
    const limited = await uploadRateLimit.consume(caller.uid);
    if (!limited.allowed) {
      reply.header('retry-after', String(limited.retryAfterSeconds));
      return sendProblem(reply, 429, 'You have uploaded many images in a short time. Please wait and try again.');
    }
    const left = new AbortController();
    // 'close' comes once per response: after the answer, or when the client leaves first.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) left.abort();
    });
    const release = await queue.enter(caller.uid, left.signal);
    if (left.signal.aborted) {
      release?.();
      return reply;
    }
    if (!release) {
      reply.header('retry-after', '5');
      return sendProblem(reply, 429, 'The server is busy with other uploads. Please try again in a moment.');
    }
    reply.raw.once('close', release);
    admitted.set(request, { uid: caller.uid, clientGone: left.signal });
    return undefined;
  }

  const upload: FastifyPluginAsync = async (app: FastifyInstance) => {
    await app.register(async (upload) => {
      // Only the listed image types are read, as raw bytes; anything else is a 415 before reading.
      upload.removeAllContentTypeParsers();
      upload.addContentTypeParser(Object.keys(ACCEPTED_IMAGE_TYPES), (_request: FastifyRequest, body: Readable) =>
        readUploadBody(body, {
          maxBytes: deps.maxBytes,
          timeoutMs: deps.bodyTimeoutMs,
          tooLarge,
          tooSlow: `The image did not arrive within ${Math.round(deps.bodyTimeoutMs / 1000)} seconds. Please try again.`,
        }),
      );
      upload.addHook('preClose', (done) => {
        // Shutdown: decodes in progress stop now; their uploads are answered 503.
        workers.stopAll();
        done();
      });
      upload.setErrorHandler((error: FastifyError, _request, reply) => {
        if (error instanceof UploadBodyError) {
          // The rest of the body is not read: the connection cannot carry another request.
          reply.header('connection', 'close');
          return sendProblem(reply, error.status, error.message);
        }
        if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
          return sendProblem(reply, 415, `Send the image itself as the body, with Content-Type ${TYPE_LIST}.`);
        }
        throw error;
      });

      upload.post(
        '/images',
        { bodyLimit: deps.maxBytes, onRequest: admitUpload, compress: false },
        async (request, reply) => {
          const { uid, clientGone } = admitted.get(request)!;
          const declared = mediaType(request.headers['content-type']) as AcceptedImageType;
          let processed;
          try {
            // The header and structure checks decode no pixel: a bomb is refused in milliseconds.
            const { decodedBytes } = await inspectImage(request.body as Buffer, declared);
            processed = await workers.process(request.body as Buffer, declared, decodedBytes, clientGone);
          } catch (error) {
            if (error instanceof ImageRejectedError) return sendProblem(reply, error.status, error.message);
            if (error instanceof ImageJobStoppedError) {
              if (error.reason === 'client-gone') return reply;
              reply.header('retry-after', '5');
              return sendProblem(reply, 503, 'The server is restarting. Please try again in a moment.');
            }
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
  };

  const files: FastifyPluginAsync = async (app: FastifyInstance) => {
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
  return { upload, files };
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
