import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { redactUrl } from './logging.ts';

/**
 * Fastify's request logging, as one line per request instead of two (at info), written by a logger
 * of its own: the line is made of listed fields only (method, the URL with secret
 * parameters redacted, status, time, client address), so it needs none of the general
 * logger's path redaction, which cost more CPU than serving a cached list page
 * (bench/README.md). Errored requests still go through the general logger.
 */
export function accessLogController(level: string, stream: DestinationStream | NodeJS.WritableStream): LogController {
  const accessLog = pino({ level }, stream as DestinationStream);
  class AccessLogController extends LogController {
    // The arrival of a request is a debugging aid: at debug level and below, through the
    // general (redacting) logger, as Fastify does by default.
    override incomingRequest(request: FastifyRequest) {
      request.log.debug({ req: request }, 'incoming request');
    }

    override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
      if (error) return super.requestCompleted(error, request, reply);
      accessLog.info(
        {
          reqId: request.id,
          req: { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip },
          res: { statusCode: reply.statusCode },
          responseTime: reply.elapsedTime,
        },
        'request completed',
      );
    }
  }
  return new AccessLogController();
}
