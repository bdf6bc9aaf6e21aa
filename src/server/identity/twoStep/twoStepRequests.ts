import { z } from 'zod';
import { displayNameField, idTokenField } from '../../../shared/identityRequests.ts';

const missingOr = (missing: string, invalid: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? missing : invalid),
});

/** A 6-digit code or a recovery code (`xxxxx-xxxxx`); anything longer is no code of ours. */
const codeField = z
  .string(missingOr('MISSING_CODE', 'INVALID_CODE'))
  .transform((code) => code.trim())
  .refine((code) => code.length > 0, 'MISSING_CODE')
  .refine((code) => code.length <= 32, 'INVALID_CODE');

const opaque = (missing: string, invalid: string) =>
  z.string(missingOr(missing, invalid)).min(1, missing).max(200, invalid);

export const startEnrollmentBody = z.object({
  idToken: idTokenField,
  totpEnrollmentInfo: z.object({}, { error: 'INVALID_REQUEST' }).optional(),
});

export const finalizeEnrollmentBody = z.object({
  idToken: idTokenField,
  displayName: displayNameField.optional(),
  totpVerificationInfo: z.object(
    {
      sessionInfo: opaque('MISSING_SESSION_INFO', 'INVALID_SESSION_INFO'),
      verificationCode: codeField,
    },
    missingOr('MISSING_SESSION_INFO', 'INVALID_REQUEST'),
  ),
});

export const withdrawBody = z.object({
  idToken: idTokenField,
  mfaEnrollmentId: opaque('MISSING_MFA_ENROLLMENT_ID', 'MFA_ENROLLMENT_NOT_FOUND'),
});

export const finalizeSignInBody = z.object({
  mfaPendingCredential: opaque('MISSING_MFA_PENDING_CREDENTIAL', 'INVALID_MFA_PENDING_CREDENTIAL'),
  mfaEnrollmentId: opaque('MISSING_MFA_ENROLLMENT_ID', 'MFA_ENROLLMENT_NOT_FOUND'),
  totpVerificationInfo: z.object({ verificationCode: codeField }, missingOr('MISSING_CODE', 'INVALID_REQUEST')),
});
