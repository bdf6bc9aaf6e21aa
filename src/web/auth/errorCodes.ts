/**
 * Server error codes (the Identity Toolkit `error.message`) to the client codes screens see: the
 * ones any page meets (restoring, refreshing, signing out). Those only the account screens meet
 * are in accountErrorCodes.ts, loaded with them (decision 0181).
 * Names follow the Firebase Auth JS SDK, so code written against it reads the same here.
 */
export const serverToClientCode: Readonly<Record<string, AuthErrorCode>> = {
  TOO_MANY_ATTEMPTS_TRY_LATER: 'too-many-requests',
  USER_DISABLED: 'user-disabled',
  TOKEN_EXPIRED: 'user-token-expired',
  // The SDK treats a vanished user like an expired session: sign out.
  USER_NOT_FOUND: 'user-token-expired',
  INVALID_ID_TOKEN: 'invalid-user-token',
  INVALID_REFRESH_TOKEN: 'invalid-refresh-token',
};

export type AuthErrorCode =
  | 'email-already-in-use'
  | 'invalid-credential'
  | 'too-many-requests'
  | 'requires-recent-login'
  | 'user-disabled'
  | 'user-token-expired'
  | 'weak-password'
  | 'invalid-email'
  | 'missing-password'
  | 'missing-email'
  | 'expired-action-code'
  | 'invalid-action-code'
  | 'invalid-user-token'
  | 'invalid-refresh-token'
  | 'invalid-verification-code'
  | 'invalid-multi-factor-session'
  | 'unverified-email'
  | 'second-factor-already-in-use'
  | 'multi-factor-info-not-found'
  | 'code-expired'
  | 'admin-restricted-operation'
  | 'network-request-failed'
  | 'user-mismatch'
  | 'no-current-user'
  | 'internal-error';

export class AuthError extends Error {
  override name = 'AuthError';
  readonly code: AuthErrorCode;
  /** The server's code, when the error came from the server (for logs; never shown to people). */
  readonly serverCode: string | undefined;
  /** The text after the server's code (`CODE : detail`), if any. */
  readonly detail: string | undefined;

  constructor(code: AuthErrorCode, serverCode?: string, detail?: string) {
    super(serverCode === undefined ? code : `${code} (${serverCode})`);
    this.code = code;
    this.serverCode = serverCode;
    this.detail = detail;
  }
}

/** Reads `error.message` as the protocol defines it: `"CODE"` or `"CODE : detail"`. */
export function errorFromServerMessage(message: string): AuthError {
  const [code = '', ...rest] = message.split(' : ');
  const serverCode = code.trim();
  const detail = rest.length > 0 ? rest.join(' : ').trim() : undefined;
  return new AuthError(serverToClientCode[serverCode] ?? 'internal-error', serverCode, detail);
}

/** Errors after which the session is dead: the client signs the user out (as the SDK does). */
export function invalidatesSession(error: unknown): boolean {
  return error instanceof AuthError && (error.code === 'user-disabled' || error.code === 'user-token-expired');
}

export function hasCode(error: unknown, code: AuthErrorCode): boolean {
  return error instanceof AuthError && error.code === code;
}
