/**
 * Two-step sign-in (TOTP) on the Identity Toolkit's multi-factor protocol (`/identity/v2/accounts/…`),
 * as both sides see it. Dependency-free: the web client imports it.
 */

import type { MfaEnrollment, PendingSecondStepResponse } from './identityProtocol.ts';

/** One enrolled factor, as sign-in answers and accounts:lookup carry it. */
export type MfaInfo = MfaEnrollment;

/** A password sign-in's answer when the account has a factor: no tokens yet. */
export type SecondStepRequired = PendingSecondStepResponse;

export interface StartTotpEnrollmentResponse {
  totpSessionInfo: {
    sharedSecretKey: string;
    verificationCodeLength: number;
    hashingAlgorithm: string;
    periodSec: number;
    sessionInfo: string;
    /** ISO 8601: the enrollment must be finalized before then. */
    finalizeEnrollmentTime: string;
  };
}

/** mfaEnrollment:finalize: new tokens, and Inkwell's recovery codes (shown once). */
export interface FinalizeTotpEnrollmentResponse {
  idToken: string;
  refreshToken?: string;
  expiresIn: string;
  recoveryCodes: string[];
}

export const TOTP_CODE_LENGTH = 6;
export const RECOVERY_CODE_COUNT = 10;

/** A 6-digit authenticator code (after spaces are removed); anything else is tried as a recovery code. */
export const isTotpCodeShaped = (code: string): boolean => /^\d{6}$/.test(code);
