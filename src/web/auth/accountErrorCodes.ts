import { AuthError, type AuthErrorCode } from './errorCodes.ts';

/**
 * Server error codes only the account screens meet (signing in and up, two-step, changes, emailed
 * codes), to client codes; errorCodes.ts has those any page meets. Names follow the Firebase Auth
 * JS SDK.
 */
const accountServerToClientCode: Readonly<Record<string, AuthErrorCode>> = {
  EMAIL_EXISTS: 'email-already-in-use',
  INVALID_LOGIN_CREDENTIALS: 'invalid-credential',
  CREDENTIAL_TOO_OLD_LOGIN_AGAIN: 'requires-recent-login',
  WEAK_PASSWORD: 'weak-password',
  INVALID_EMAIL: 'invalid-email',
  MISSING_PASSWORD: 'missing-password',
  MISSING_EMAIL: 'missing-email',
  EXPIRED_OOB_CODE: 'expired-action-code',
  INVALID_OOB_CODE: 'invalid-action-code',
  // Two-step sign-in (the SDK's names).
  INVALID_CODE: 'invalid-verification-code',
  MISSING_CODE: 'invalid-verification-code',
  INVALID_MFA_PENDING_CREDENTIAL: 'invalid-multi-factor-session',
  UNVERIFIED_EMAIL: 'unverified-email',
  SECOND_FACTOR_EXISTS: 'second-factor-already-in-use',
  MFA_ENROLLMENT_NOT_FOUND: 'multi-factor-info-not-found',
  SESSION_EXPIRED: 'code-expired',
  INVALID_SESSION_INFO: 'code-expired',
  // Sign-up closed, or by invitation and none valid; the detail says which (src/shared/invitations.ts).
  ADMIN_ONLY_OPERATION: 'admin-restricted-operation',
};

/** An error the identity client could not name (internal-error), named with the account screens' codes. */
export function withAccountCodes(error: unknown): unknown {
  if (!(error instanceof AuthError) || error.code !== 'internal-error' || error.serverCode === undefined) return error;
  const code = accountServerToClientCode[error.serverCode];
  return code === undefined ? error : new AuthError(code, error.serverCode, error.detail);
}
