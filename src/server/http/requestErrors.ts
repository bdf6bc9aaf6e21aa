import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './problem.ts';

/**
 * Turns an error Fastify raised while reading a request (body too large, bad JSON, wrong
 * content type...) into a status and a sentence a client developer can act on.
 * Returns undefined for anything else: those are server faults.
 */
export function describeRequestError(error: FastifyError): { status: number; message: string } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: 'The request body is larger than 64 KiB.' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: 'The request body must be JSON (Content-Type: application/json).' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'The request body is empty; a JSON object was expected.' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: 'The Content-Length header does not match the body.' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, message: 'The request body is not valid JSON.' };
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_TYPE') {
    return { status: 400, message: 'The request body is not valid JSON.' };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, message: error.message };
  return undefined;
}

/** The problem+json error handler (of the root and of the `/api` scope): a known client error says what to mend; any other is logged and answered 500 without its details. */
export function problemErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const known = describeRequestError(error);
  if (known) return sendProblem(reply, known.status, known.message);
  request.log.error({ err: error }, 'unhandled error');
  return sendProblem(reply, 500, 'Something went wrong on our side. Please try again.');
}
