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

/** Wrong codes given for a pending second step (the core's); at the limit it is dead. */
export interface TwoStepWrongCodesTable {
  credential_hash: string;
  user_id: string;
  wrong_codes: number;
  expires_at: number;
}

export interface TwoStepTables {
  two_step_factors: TwoStepFactorsTable;
  two_step_enrollments: TwoStepEnrollmentsTable;
  two_step_recovery_codes: TwoStepRecoveryCodesTable;
  two_step_wrong_codes: TwoStepWrongCodesTable;
}
