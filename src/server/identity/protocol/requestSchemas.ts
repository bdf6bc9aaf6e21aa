import type { z } from 'zod';
import {
  IDENTITY_ERROR_CODES,
  parseIdentityErrorMessage,
  type IdentityErrorCode,
} from '../../../shared/identityProtocol.ts';
import { ProtocolError } from './protocolErrors.ts';

// The schemas are shared with the web client, which derives its request types from them.
export {
  applyOobCodeBody,
  changeEmailOobBody,
  createAuthUriBody,
  idTokenBody,
  passwordResetOobBody,
  resetPasswordBody,
  revokeTokenBody,
  sendOobCodeBody,
  signInBody,
  signUpBody,
  tokenBody,
  updateBody,
  verifyEmailOobBody,
} from '../../../shared/identityRequests.ts';

/** Parses a request body or throws the protocol error its first problem calls for. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const input = body === undefined || body === null || body === '' ? {} : body;
  if (typeof input !== 'object' || Array.isArray(input)) throw new ProtocolError('INVALID_REQUEST');
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? 'INVALID_REQUEST';
  const { code, detail } = parseIdentityErrorMessage(message);
  const known = (IDENTITY_ERROR_CODES as readonly string[]).includes(code);
  throw new ProtocolError(known ? (code as IdentityErrorCode) : 'INVALID_REQUEST', known && detail ? { detail } : {});
}
