import type { Transaction } from 'kysely';
import type { DatabaseSchema } from '../../../db/schema.ts';
import type { Role } from '../../../../shared/roles.ts';

/**
 * Who may sign up, and with which role: the sign-up policy (SIGNUP, invitations) is the roles
 * feature's, wired in services.ts; the core asks before it creates an account.
 */
export interface SignUpGate {
  /**
   * The role a new account with this address gets, or IdentityError ADMIN_ONLY_OPERATION
   * (sign-up closed, or invitation-only and no valid invitation). Only reads.
   */
  admit(request: { email: string; inviteCode?: string | undefined }): Promise<SignUpAdmission>;
}

export interface SignUpAdmission {
  /** The role the account starts with. */
  role: Role;
  /**
   * A role bound to the address (an invitation sent to it): granted once the account claims
   * the address (addressClaims.ts), at once when a provider verified it.
   */
  claimableRole?: Role | undefined;
  /**
   * Uses up what admitted the account (an invitation), in the transaction that creates it,
   * after the users row is written; throws IdentityError ADMIN_ONLY_OPERATION when another
   * sign-up used it first, which rolls the account back.
   */
  claim?(uid: string, trx: Transaction<DatabaseSchema>): Promise<void>;
}

/** The spec's behaviour: anyone may sign up and publishes. */
export const openSignUp: SignUpGate = { admit: async () => ({ role: 'author' }) };
