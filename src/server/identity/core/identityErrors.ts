import type { IdentityErrorCode } from '../../../shared/identityProtocol.ts';

/**
 * Why an account operation was refused. The codes are the Identity Toolkit's own (the
 * protocol's vocabulary is the domain's); each door decides how to show one (the protocol
 * door as `{"error":{...}}` with a status, the admin command as a line of text).
 */
export class IdentityError extends Error {
  override name = 'IdentityError';
  readonly code: IdentityErrorCode;
  readonly detail: string | undefined;
  /** Set on TOO_MANY_ATTEMPTS_TRY_LATER. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: IdentityErrorCode, options: { detail?: string; retryAfterSeconds?: number } = {}) {
    super(options.detail ? `${code} : ${options.detail}` : code);
    this.code = code;
    this.detail = options.detail;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function tooManyAttempts(retryAfterSeconds: number): IdentityError {
  return new IdentityError('TOO_MANY_ATTEMPTS_TRY_LATER', { retryAfterSeconds: Math.max(1, retryAfterSeconds) });
}

export const emailDeliveryFailed = () =>
  new IdentityError('EMAIL_DELIVERY_FAILED', { detail: 'The email could not be sent. Try again later.' });
