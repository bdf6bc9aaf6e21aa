/**
 * The `/identity` wire protocol (Identity Toolkit dialect) as both sides see it.
 * Dependency-free on purpose: the web client imports it.
 */
import { PASSKEY_ERROR_CODES } from './passkeyProtocol.ts';

/** Every `error.message` code the server answers with. */
export const IDENTITY_ERROR_CODES = [
  'EMAIL_EXISTS',
  'INVALID_LOGIN_CREDENTIALS',
  'USER_DISABLED',
  'TOO_MANY_ATTEMPTS_TRY_LATER',
  'CREDENTIAL_TOO_OLD_LOGIN_AGAIN',
  'TOKEN_EXPIRED',
  'INVALID_ID_TOKEN',
  'USER_NOT_FOUND',
  'WEAK_PASSWORD',
  'MISSING_PASSWORD',
  'MISSING_EMAIL',
  'INVALID_EMAIL',
  'EXPIRED_OOB_CODE',
  'INVALID_OOB_CODE',
  'INVALID_REFRESH_TOKEN',
  'MISSING_REFRESH_TOKEN',
  'INVALID_GRANT_TYPE',
  // A required field absent (Firebase's own codes for these, issue 35's parity run).
  'MISSING_ID_TOKEN',
  'MISSING_OOB_CODE',
  'MISSING_GRANT_TYPE',
  'MISSING_NEW_EMAIL',
  // accounts:createAuthUri.
  'MISSING_IDENTIFIER',
  'INVALID_IDENTIFIER',
  'MISSING_CONTINUE_URI',
  'INVALID_CONTINUE_URI',
  // Two-step sign-in (the multi-factor protocol's own codes).
  'UNVERIFIED_EMAIL',
  'SECOND_FACTOR_EXISTS',
  'MISSING_CODE',
  'INVALID_CODE',
  'MISSING_SESSION_INFO',
  'INVALID_SESSION_INFO',
  'SESSION_EXPIRED',
  'MISSING_MFA_PENDING_CREDENTIAL',
  // Sign-up closed, or invitation-only without a valid invitation (the SDK's auth/admin-restricted-operation).
  'ADMIN_ONLY_OPERATION',
  // A second step's pending credential is unknown, used or expired (sign in again).
  'INVALID_MFA_PENDING_CREDENTIAL',
  'MISSING_MFA_ENROLLMENT_ID',
  'MFA_ENROLLMENT_NOT_FOUND',
  // Signing in with OpenID Connect providers (accounts:signInWithIdp, deleteProvider).
  'OPERATION_NOT_ALLOWED',
  'INVALID_IDP_RESPONSE',
  'FEDERATED_USER_ID_ALREADY_LINKED',
  'PROVIDER_ALREADY_LINKED',
  'LAST_SIGN_IN_METHOD',
  // Beyond the protocol's own codes: malformed requests and infrastructure failures.
  'INVALID_REQUEST',
  'INVALID_DISPLAY_NAME',
  'INVALID_PHOTO_URL',
  'MISSING_REQ_TYPE',
  'INVALID_REQ_TYPE',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'EMAIL_DELIVERY_FAILED',
  'INTERNAL_ERROR',
  ...PASSKEY_ERROR_CODES,
] as const;

export type IdentityErrorCode = (typeof IDENTITY_ERROR_CODES)[number];

/** The body of every error response; `error.message` is `CODE` or `CODE : detail`. */
export interface IdentityErrorBody {
  error: {
    code: number;
    message: string;
    errors: { message: string; domain: 'global'; reason: 'invalid' }[];
  };
}

/** Splits `error.message` the way clients do: `"WEAK_PASSWORD : Password should..."`. */
export function parseIdentityErrorMessage(message: string): { code: string; detail: string | undefined } {
  const separator = message.indexOf(' : ');
  if (separator === -1) return { code: message.trim(), detail: undefined };
  return { code: message.slice(0, separator).trim(), detail: message.slice(separator + 3).trim() };
}

/** Header a browser client sends on every call to use the HttpOnly refresh cookie. */
export const SESSION_MODE_HEADER = 'x-inkwell-session';
export const SESSION_MODE_COOKIE_VALUE = 'cookie';
export const SESSION_COOKIE_NAME = 'inkwell_session';

export const MAX_PASSWORD_LENGTH = 4096;
export const MAX_DISPLAY_NAME_LENGTH = 100;

/** Sign-up and sign-in answers; `refreshToken` is absent in browser session mode. */
export interface SignInResponse {
  kind: string;
  localId: string;
  email: string;
  displayName: string;
  idToken: string;
  refreshToken?: string;
  expiresIn: string;
  registered?: boolean;
}

/** One enrolled second factor, as a pending sign-in offers it (Firebase's `mfaInfo`). */
export interface MfaEnrollment {
  mfaEnrollmentId: string;
  displayName?: string;
  /** RFC 3339. */
  enrolledAt: string;
  totpInfo?: Record<string, never>;
}

/**
 * A sign-in (any method) whose account needs a second step: no token yet; the second factor's
 * call completes it with `mfaPendingCredential` (the identity core's signInAttempt.ts).
 */
export interface PendingSecondStepResponse {
  kind: string;
  localId: string;
  email: string;
  displayName: string;
  registered: true;
  mfaPendingCredential: string;
  mfaInfo: MfaEnrollment[];
}

/** One way to sign in to an account: `password`, or a provider (`google.com`, `oidc.<id>`). */
export interface ProviderUserInfo {
  providerId: string;
  rawId: string;
  federatedId: string;
  email?: string;
  displayName?: string;
  photoUrl?: string;
}

export interface LookupUser {
  localId: string;
  email: string;
  emailVerified: boolean;
  displayName?: string;
  photoUrl?: string;
  passwordUpdatedAt: number;
  providerUserInfo: ProviderUserInfo[];
  validSince: string;
  disabled?: boolean;
  createdAt: string;
  lastLoginAt: string;
  /** The two-step factor, when one is enrolled. */
  mfaInfo?: MfaEnrollment[];
  /** Custom claims as a JSON string: `{"role":"author"}`. */
  customAttributes: string;
}

export interface LookupResponse {
  kind: string;
  users: LookupUser[];
}

export interface UpdateAccountResponse {
  kind: string;
  localId: string;
  email: string;
  displayName?: string;
  photoUrl?: string;
  providerUserInfo: ProviderUserInfo[];
  emailVerified: boolean;
  passwordHash?: string;
  idToken?: string;
  refreshToken?: string;
  expiresIn?: string;
}

export interface ResetPasswordResponse {
  kind: string;
  email: string;
  requestType: 'PASSWORD_RESET';
}

export interface TokenResponse {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  expires_in: string;
  token_type: 'Bearer';
  user_id: string;
  project_id: string;
}

export interface PasswordPolicyResponse {
  customStrengthOptions: { minPasswordLength: number; maxPasswordLength: number };
  allowedNonAlphanumericCharacters: string[];
  enforcementState: 'ENFORCE';
  forceUpgradeOnSignin: boolean;
  schemaVersion: number;
}

/** Email actions (docs/architecture.md, Sign-in protocol): the emailed codes besides PASSWORD_RESET. */
export type EmailActionRequestType = 'VERIFY_EMAIL' | 'VERIFY_AND_CHANGE_EMAIL' | 'RECOVER_EMAIL';

/**
 * accounts:resetPassword with only an action code of any type: what it would do. For
 * RECOVER_EMAIL, `email` is the address it restores and `newEmail` the one it replaces.
 */
export interface ActionCodeInfoResponse {
  kind: string;
  requestType: 'PASSWORD_RESET' | EmailActionRequestType;
  email: string;
  newEmail?: string;
}
