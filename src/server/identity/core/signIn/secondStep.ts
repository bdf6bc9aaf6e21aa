import type { Transaction } from 'kysely';
import type { DatabaseSchema } from '../../../db/schema.ts';
import type { RecentSignIn } from '../sessions/recentSignIn.ts';
import type { SessionIssuer } from '../sessions/sessionIssuer.ts';
import type { SecondFactorInfo, SecondStepPolicy, SignInAttempts } from './signInAttempt.ts';

/**
 * The seam a second step (two-step sign-in, `identity/twoStep/`) plugs into the core by. The
 * core declares it and knows no second step: the composition (`createIdentity.ts`) makes one
 * from the `SecondStepTools` the core lends and installs it with `core.useSecondStep`. Until
 * then no sign-in needs a second factor and no account has one.
 */
export interface SecondStep extends SecondStepPolicy {
  /** The account's enrolled factors, whatever the sign-in (accounts:lookup's `mfaInfo`); [] when none. */
  enrolled(uid: string): Promise<SecondFactorInfo[]>;
  /**
   * Removes the account's factors, inside the transaction that deletes the account or hands it
   * to whoever proved its address (a takeover): they are a way in like a password.
   */
  removeAllOfUser(uid: string, trx: Transaction<DatabaseSchema>): Promise<void>;
}

/**
 * What the core lends a second step: its one session issuer, the end of an account's sessions,
 * the completing half of its one sign-in attempt, and its one recent-sign-in rule, so that a
 * second step issues and ends sessions exactly as every other way in does.
 */
export interface SecondStepTools {
  issueSession: SessionIssuer['issue'];
  endAllSessions(uid: string, trx: Transaction<DatabaseSchema>): Promise<void>;
  completeSecondStep: SignInAttempts['completeSecondStep'];
  recentSignIn: RecentSignIn;
}

/** The second step before one is installed: none needed, none enrolled. */
export const noSecondStepInstalled: SecondStep = {
  required: async () => null,
  enrolled: async () => [],
  removeAllOfUser: async () => {},
};
