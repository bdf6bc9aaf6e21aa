import type { FastifyReply } from 'fastify';
import type { IdentityErrorCode } from '../../../shared/identityProtocol.ts';
import type { InputRefusal } from '../../http/inputRules.ts';
import { ProtocolError, sendProtocolError } from './protocolErrors.ts';

/**
 * The protocol's code for a field the client sent, as the route itself would have refused it
 * (a Firebase client shows its own message for these); INVALID_REQUEST for any other.
 */
const PROTOCOL_CODES: Partial<Record<string, IdentityErrorCode>> = {
  email: 'INVALID_EMAIL',
  newEmail: 'INVALID_EMAIL',
  identifier: 'INVALID_EMAIL',
  displayName: 'INVALID_DISPLAY_NAME',
  photoUrl: 'INVALID_PHOTO_URL',
  idToken: 'INVALID_ID_TOKEN',
  refresh_token: 'INVALID_REFRESH_TOKEN',
  oobCode: 'INVALID_OOB_CODE',
  mfaPendingCredential: 'INVALID_MFA_PENDING_CREDENTIAL',
  name: 'INVALID_PASSKEY_NAME',
  credential: 'INVALID_PASSKEY',
};

/**
 * How `/identity` answers a refusal of the input rules (http/inputRules.ts, decision 0561): a
 * field's own code says what is wrong, as the route's would; any other refusal says why.
 */
export function refuseIdentityInput(reply: FastifyReply, refusal: InputRefusal) {
  // Own keys only: a field named `toString` must not find Object.prototype's.
  const field = refusal.field[0] ?? '';
  const code = refusal.where === 'body' && Object.hasOwn(PROTOCOL_CODES, field) ? PROTOCOL_CODES[field] : undefined;
  if (code) return sendProtocolError(reply, new ProtocolError(code));
  return sendProtocolError(reply, new ProtocolError('INVALID_REQUEST', { detail: refusal.detail }));
}
