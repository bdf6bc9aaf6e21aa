import type { SecondStepRequired } from '../../shared/twoStepProtocol.ts';

/**
 * A right password on an account with two-step verification: no session yet. Screens catch it
 * and ask for the code (the SDK's auth/multi-factor-auth-required, with its resolver's data).
 */
export class SecondStepNeeded extends Error {
  override name = 'SecondStepNeeded';
  readonly pendingCredential: string;
  readonly enrollmentId: string;
  readonly uid: string;

  constructor(answer: SecondStepRequired) {
    super('multi-factor-auth-required');
    this.pendingCredential = answer.mfaPendingCredential;
    this.enrollmentId = answer.mfaInfo[0]?.mfaEnrollmentId ?? '';
    this.uid = answer.localId;
  }
}

export const needsSecondStep = (answer: object): answer is SecondStepRequired => 'mfaPendingCredential' in answer;

/** The SecondStepNeeded behind an error (screens may wrap it in their own message). */
export function secondStepOf(error: unknown): SecondStepNeeded | undefined {
  if (error instanceof SecondStepNeeded) return error;
  if (error instanceof Error && error.cause instanceof SecondStepNeeded) return error.cause;
  return undefined;
}
