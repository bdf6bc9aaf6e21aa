import { z } from 'zod';
import { MAX_DISPLAY_NAME_LENGTH, MAX_PASSWORD_LENGTH, type IdentityErrorCode } from './identityProtocol.ts';

/**
 * The `/identity` protocol's request bodies as zod schemas: the server parses with them
 * (identity/protocol/requestSchemas.ts), and the request types both sides use are derived from
 * them, so the two cannot drift apart. Unknown fields (`returnSecureToken`, `?key=`) are ignored.
 */

/**
 * Emails are compared trimmed and case-insensitively; this is the stored form. The one rule
 * for both request parsing and lookups, so the two cannot drift apart.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Issue messages are protocol error messages ("CODE" or "CODE : detail"), so the first
// issue of a failed parse is the answer to the client.
const missingOr = (missing: IdentityErrorCode, invalid: IdentityErrorCode) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? missing : invalid),
});

export const emailField = z
  .string(missingOr('MISSING_EMAIL', 'INVALID_EMAIL'))
  .trim()
  .min(1, 'MISSING_EMAIL')
  .max(254, 'INVALID_EMAIL')
  .pipe(z.email({ error: 'INVALID_EMAIL' }))
  .transform(normalizeEmail);

// PostgreSQL text cannot hold NUL, and a lone UTF-16 surrogate has no UTF-8 form: such text
// would fail to store (a 500) or come back changed, so it is refused.
const isStorableText = (value: string) => !value.includes('\u0000') && value.isWellFormed();

export const displayNameField = z
  .string({ error: 'INVALID_DISPLAY_NAME' })
  .max(1000, 'INVALID_DISPLAY_NAME')
  .refine(isStorableText, 'INVALID_DISPLAY_NAME')
  .transform((name) => name.trim())
  .refine((name) => name.length <= MAX_DISPLAY_NAME_LENGTH, 'INVALID_DISPLAY_NAME');

export const photoUrlField = z
  .string({ error: 'INVALID_PHOTO_URL' })
  .max(2048, 'INVALID_PHOTO_URL')
  .refine((url) => url === '' || /^https?:\/\/[^\s\p{Cc}]+$/iu.test(url), 'INVALID_PHOTO_URL')
  .refine(isStorableText, 'INVALID_PHOTO_URL')
  .refine((url) => url === '' || URL.canParse(url), 'INVALID_PHOTO_URL');

export const idTokenField = z.string(missingOr('MISSING_ID_TOKEN', 'INVALID_ID_TOKEN')).min(1, 'MISSING_ID_TOKEN');

/** Password fields; strength is checked separately with the configured minimum. */
const passwordField = z.string(missingOr('MISSING_PASSWORD', 'INVALID_REQUEST')).min(1, 'MISSING_PASSWORD');

export const signUpBody = z.object({
  email: emailField,
  password: passwordField,
  displayName: displayNameField.optional(),
  // An invitation's code (`/signup?invite=CODE`). Any string: an unknown or malformed code is
  // refused like a missing one (ADMIN_ONLY_OPERATION).
  inviteCode: z.string({ error: 'INVALID_REQUEST' }).max(200, 'ADMIN_ONLY_OPERATION').optional(),
});

export const signInBody = z.object({
  email: emailField,
  password: passwordField.max(MAX_PASSWORD_LENGTH, 'INVALID_LOGIN_CREDENTIALS'),
});

export const idTokenBody = z.object({ idToken: idTokenField });

export const updateBody = z.object({
  idToken: idTokenField,
  email: emailField.optional(),
  password: passwordField.optional(),
  displayName: displayNameField.optional(),
  photoUrl: photoUrlField.optional(),
  deleteAttribute: z
    .array(z.enum(['DISPLAY_NAME', 'PHOTO_URL'], { error: 'INVALID_REQUEST' }), { error: 'INVALID_REQUEST' })
    .max(10, 'INVALID_REQUEST')
    .optional(),
  /** Ways to sign in to remove: 'password' or provider ids (the SDK's unlink). */
  deleteProvider: z
    .array(z.string({ error: 'INVALID_REQUEST' }).max(100, 'INVALID_REQUEST'), { error: 'INVALID_REQUEST' })
    .max(10, 'INVALID_REQUEST')
    .optional(),
});

const OOB_REQUEST_TYPES = ['PASSWORD_RESET', 'VERIFY_EMAIL', 'VERIFY_AND_CHANGE_EMAIL'] as const;

/** accounts:sendOobCode: the request type picks the rest of the body. */
export const sendOobCodeBody = z.object({
  requestType: z
    .string(missingOr('MISSING_REQ_TYPE', 'INVALID_REQ_TYPE'))
    .refine((type) => (OOB_REQUEST_TYPES as readonly string[]).includes(type), 'INVALID_REQ_TYPE')
    .transform((type) => type as (typeof OOB_REQUEST_TYPES)[number]),
});
export const passwordResetOobBody = z.object({ email: emailField });
export const verifyEmailOobBody = z.object({ idToken: idTokenField });
export const changeEmailOobBody = z.object({
  idToken: idTokenField,
  newEmail: z
    .string(missingOr('MISSING_NEW_EMAIL', 'INVALID_EMAIL'))
    .trim()
    .min(1, 'MISSING_NEW_EMAIL')
    .max(254, 'INVALID_EMAIL')
    .pipe(z.email({ error: 'INVALID_EMAIL' }))
    .transform(normalizeEmail),
});

const oobCodeField = z
  .string(missingOr('MISSING_OOB_CODE', 'INVALID_OOB_CODE'))
  .min(1, 'MISSING_OOB_CODE')
  .max(200, 'INVALID_OOB_CODE');

/** accounts:update with an action code instead of an ID token (the SDK's applyActionCode). */
/**
 * `idToken` is Inkwell's addition: the browser signed in to the account it verifies sends it, and
 * the verification then claims the address (docs/security.md, Whose account it is).
 */
export const applyOobCodeBody = z.object({ oobCode: oobCodeField, idToken: idTokenField.optional() });

export const resetPasswordBody = z.object({
  oobCode: oobCodeField,
  newPassword: passwordField.optional(),
});

export const tokenBody = z.object({
  grant_type: z.literal('refresh_token', missingOr('MISSING_GRANT_TYPE', 'INVALID_GRANT_TYPE')),
  refresh_token: z.string({ error: 'INVALID_REFRESH_TOKEN' }).optional(),
});

export const revokeTokenBody = z.object({
  token: z.string({ error: 'INVALID_REFRESH_TOKEN' }).optional(),
  tokenType: z.literal('REFRESH_TOKEN', { error: 'INVALID_REQUEST' }).optional(),
});

/** accounts:signUp (the SDK also sends `returnSecureToken`, ignored). */
/** accounts:createAuthUri: the SDK's fetchSignInMethodsForEmail sends these two. */
export const createAuthUriBody = z.object({
  identifier: z
    .string(missingOr('MISSING_IDENTIFIER', 'INVALID_IDENTIFIER'))
    .trim()
    .min(1, 'MISSING_IDENTIFIER')
    .max(254, 'INVALID_IDENTIFIER')
    .pipe(z.email({ error: 'INVALID_IDENTIFIER' })),
  continueUri: z
    .string(missingOr('MISSING_CONTINUE_URI', 'INVALID_CONTINUE_URI'))
    .min(1, 'MISSING_CONTINUE_URI')
    .max(2048, 'INVALID_CONTINUE_URI')
    .refine((uri) => /^https?:\/\/[^\s/]+/i.test(uri) && URL.canParse(uri), 'INVALID_CONTINUE_URI'),
});

export type SignUpRequest = z.input<typeof signUpBody>;
export type SignInWithPasswordRequest = z.input<typeof signInBody>;
export type UpdateAccountRequest = z.input<typeof updateBody>;
export type ResetPasswordRequest = z.input<typeof resetPasswordBody>;
export type TokenRequest = z.input<typeof tokenBody>;
export type RevokeTokenRequest = z.input<typeof revokeTokenBody>;
