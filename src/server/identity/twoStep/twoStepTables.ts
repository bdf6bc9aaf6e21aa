/** The two-step sign-in tables (TOTP). Times are epoch milliseconds. */
export interface TwoStepFactorsTable {
  /** One factor per account. */
  user_id: string;
  /** The protocol's `mfaEnrollmentId`. */
  enrollment_id: string;
  display_name: string | null;
  /** Base32 shared secret; never logged, never sent again after enrollment. */
  secret: string;
  enrolled_at: number;
  /** Time step of the last accepted code; codes of that step or older are refused. */
  last_used_step: number;
}

/** Enrollments under way (mfaEnrollment:start → :finalize). */
export interface TwoStepEnrollmentsTable {
  session_hash: string;
  user_id: string;
  secret: string;
  wrong_codes: number;
  expires_at: number;
}

/** Recovery codes, only their hash kept; each works once. */
export interface TwoStepRecoveryCodesTable {
  code_hash: string;
  user_id: string;
  used_at: number | null;
}

/** Sign-ins whose password was right and that wait for the second step. */
export interface TwoStepPendingSignInsTable {
  credential_hash: string;
  user_id: string;
  provider: string;
  wrong_codes: number;
  expires_at: number;
}

export interface TwoStepTables {
  two_step_factors: TwoStepFactorsTable;
  two_step_enrollments: TwoStepEnrollmentsTable;
  two_step_recovery_codes: TwoStepRecoveryCodesTable;
  two_step_pending_sign_ins: TwoStepPendingSignInsTable;
}
