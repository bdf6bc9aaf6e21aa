import type { FastifyReply } from 'fastify';
import type { IdentityErrorBody, IdentityErrorCode } from '../../shared/identityProtocol.ts';

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

export function tooManyAttempts(retryAfterSeconds: number): ProtocolError {
  return new ProtocolError('TOO_MANY_ATTEMPTS_TRY_LATER', {
    status: 429,
    retryAfterSeconds: Math.max(1, retryAfterSeconds),
  });
}
