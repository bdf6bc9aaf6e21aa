import type { FastifyReply } from 'fastify';
import type { IdentityErrorBody, IdentityErrorCode } from '../../../shared/identityProtocol.ts';
import { IdentityError } from '../core/identityErrors.ts';
import { IdTokenError } from '../core/sessions/verifyIdToken.ts';

/** A failure the protocol reports to the client as `{"error":{...}}`. */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
  readonly code: IdentityErrorCode;
  readonly status: number;
  readonly detail: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: IdentityErrorCode, options: { status?: number; detail?: string; retryAfterSeconds?: number } = {}) {
    super(options.detail ? `${code} : ${options.detail}` : code);
    this.code = code;
    this.status = options.status ?? 400;
    this.detail = options.detail;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The HTTP status a refusal of the core is answered with (docs/architecture.md, Sign-in protocol: 400, 429 for rate limits). */
function statusOf(code: IdentityErrorCode): number {
  if (code === 'TOO_MANY_ATTEMPTS_TRY_LATER') return 429;
  if (code === 'EMAIL_DELIVERY_FAILED') return 503;
  return 400;
}

/** The core's refusals (and the token check's) in the protocol's terms; undefined for anything else. */
export function toProtocolError(error: unknown): ProtocolError | undefined {
  if (error instanceof ProtocolError) return error;
  if (error instanceof IdTokenError) return new ProtocolError(error.code);
  if (error instanceof IdentityError) {
    return new ProtocolError(error.code, {
      status: statusOf(error.code),
      ...(error.detail !== undefined ? { detail: error.detail } : {}),
      ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    });
  }
  return undefined;
}

export function protocolErrorBody(status: number, message: string): IdentityErrorBody {
  return { error: { code: status, message, errors: [{ message, domain: 'global', reason: 'invalid' }] } };
}

export function sendProtocolError(reply: FastifyReply, error: ProtocolError) {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send(protocolErrorBody(error.status, error.message));
}
