/**
 * Inkwell's passkey calls (`/identity/v1/passkeys:*`, docs/architecture.md, Sign-in protocol): Inkwell's own addition to
 * the Identity Toolkit protocol, in its JSON and error style. Dependency-free: the web client imports it.
 */

/** Error codes only the passkey calls answer with. */
export const PASSKEY_ERROR_CODES = [
  // The challenge is unknown, already used, expired, or for another ceremony or account.
  'INVALID_PASSKEY_CHALLENGE',
  // No passkey with that id belongs here (sign-in: not recognised; remove/rename: not the caller's).
  'PASSKEY_NOT_FOUND',
  // The browser's answer does not verify (origin, relying party, signature, user verification, counter).
  'INVALID_PASSKEY',
  // The authenticator already holds a passkey registered with Inkwell.
  'PASSKEY_EXISTS',
  'INVALID_PASSKEY_NAME',
] as const;

export const MAX_PASSKEY_NAME_LENGTH = 100;

/** A passkey as the list shows it; times are strings of epoch milliseconds, as in the protocol. */
export interface PasskeyView {
  credentialId: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface PasskeyListResponse {
  kind: 'inkwell#PasskeyList';
  passkeys: PasskeyView[];
}

/** passkeys:startRegistration and passkeys:startSignIn answer WebAuthn options in their JSON form. */
export interface PasskeyOptionsResponse<Options> {
  kind: 'inkwell#PasskeyOptions';
  options: Options;
}
