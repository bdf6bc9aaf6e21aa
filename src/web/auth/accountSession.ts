import { accountCalls, type AccountCalls, type UpdateRequest } from './accountCalls.ts';
import type { AuthUser } from './authTypes.ts';
import type { AuthSession } from './authSession.ts';
import { AuthError } from './errorCodes.ts';
import type { SignInResponse } from './identityClient.ts';
import { needsSecondStep, SecondStepNeeded } from './secondStep.ts';

/** docs/product.md (Rules): the password minimum when the server's policy sets none. */
export const DEFAULT_MIN_PASSWORD_LENGTH = 6;

/**
 * What the account screens do with the session: sign in (and its second step), sign up, reset a
 * password, change or delete the account. Apart from AuthSession so that the home page, which only
 * restores a session, reads its state and signs out, does not load it (decision 0181).
 */
export class AccountSession {
  readonly #session: AuthSession;
  readonly #calls: AccountCalls;
  #policyMinLength: Promise<number> | null = null;

  constructor(session: AuthSession) {
    this.#session = session;
    this.#calls = accountCalls(session.client);
  }

  /** `inviteCode`: an invitation's code (`/signup?invite=CODE`). */
  async createUser(email: string, password: string, inviteCode?: string): Promise<AuthUser> {
    const answer = await this.#calls.signUp(email, password, inviteCode);
    return this.#session.acceptSignIn(answer);
  }

  /** Rejects with SecondStepNeeded when the account has two-step verification: finishSecondStep() goes on. */
  async signIn(email: string, password: string): Promise<AuthUser> {
    const answer = await this.#calls.signInWithPassword(email, password);
    if (needsSecondStep(answer)) throw new SecondStepNeeded(answer);
    return this.#session.acceptSignIn(answer);
  }

  /**
   * Finishes a sign-in (or a re-authentication) that SecondStepNeeded held up, with a 6-digit code
   * or a recovery code.
   */
  async finishSecondStep(pending: SecondStepNeeded, code: string): Promise<AuthUser> {
    const answer = await this.#calls.post<SignInResponse>('v2/accounts/mfaSignIn:finalize', {
      mfaPendingCredential: pending.pendingCredential,
      mfaEnrollmentId: pending.enrollmentId,
      totpVerificationInfo: { verificationCode: code },
    });
    const state = this.#session.state;
    if (state.status === 'signedIn' && state.user.uid !== answer.localId) {
      throw new AuthError('user-mismatch');
    }
    return this.#session.acceptSignIn(answer);
  }

  /** The minimum password length the server enforces (docs/product.md: 6 when the policy sets none). */
  async passwordMinLength(): Promise<number> {
    this.#policyMinLength ??= this.#session.client
      .getPasswordPolicy()
      .then((policy) => policy.customStrengthOptions?.minPasswordLength ?? DEFAULT_MIN_PASSWORD_LENGTH)
      .catch(() => {
        this.#policyMinLength = null; // ask again next time
        return DEFAULT_MIN_PASSWORD_LENGTH;
      });
    return this.#policyMinLength;
  }

  sendPasswordResetEmail(email: string): Promise<void> {
    return this.#calls.sendPasswordResetEmail(email);
  }

  verifyPasswordResetCode(oobCode: string): Promise<string> {
    return this.#calls.verifyPasswordResetCode(oobCode);
  }

  async confirmPasswordReset(oobCode: string, newPassword: string): Promise<void> {
    await this.#calls.confirmPasswordReset(oobCode, newPassword);
  }

  /** Whether the signed-in account's address is verified, as the server knows it now. */
  async isEmailVerified(): Promise<boolean> {
    const idToken = await this.#session.requireToken();
    return (await this.#session.guard(this.#session.client.lookup(idToken))).emailVerified;
  }

  /** Mails the signed-in account's address a verification link. */
  async sendEmailVerification(): Promise<void> {
    const idToken = await this.#session.requireToken();
    await this.#session.guard(this.#calls.sendEmailVerification(idToken));
  }

  /**
   * Applies an emailed action code (verify, change or recover an address); answers the address
   * the account has now. A change or a recovery ends every session on the server, so this
   * browser signs out too.
   */
  async applyActionCode(
    oobCode: string,
    mode: 'verifyEmail' | 'verifyAndChangeEmail' | 'recoverEmail',
  ): Promise<string> {
    // Signed in here, a verification link claims the address for this account (docs/security.md).
    const idToken = mode === 'recoverEmail' ? null : await this.#session.getIdToken().catch(() => null);
    const answer = await this.#calls.applyActionCode(oobCode, idToken ?? undefined);
    if (mode !== 'verifyEmail' && this.#session.state.status === 'signedIn') {
      await this.#session.signOut().catch(() => undefined);
    }
    return answer.email;
  }

  updateDisplayName(displayName: string): Promise<AuthUser> {
    return this.#update({ displayName });
  }

  updateEmail(email: string): Promise<AuthUser> {
    return this.#update({ email });
  }

  updatePassword(password: string): Promise<AuthUser> {
    return this.#update({ password });
  }

  /** Sets the profile picture (an uploaded image's URL), or removes it with null. */
  updatePhotoUrl(photoUrl: string | null): Promise<AuthUser> {
    return this.#update(photoUrl === null ? { deleteAttribute: ['PHOTO_URL'] } : { photoUrl });
  }

  /** Proves the person is still there (for requires-recent-login): signs in again as the same user. */
  async reauthenticate(password: string): Promise<void> {
    const user = this.#session.currentUser();
    const answer = await this.#session.guard(this.#calls.signInWithPassword(user.email, password));
    if (answer.localId !== user.uid) throw new AuthError('user-mismatch');
    if (needsSecondStep(answer)) throw new SecondStepNeeded(answer);
    this.#session.acceptSignIn(answer);
  }

  /** A call of a feature beyond this class (passkeys); a dead session signs out as it does elsewhere. */
  callIdentity<T>(path: string, body: object): Promise<T> {
    return this.#session.guard(this.#calls.post<T>(path, body));
  }

  /** Adopts a sign-in another door (a passkey) answered as signInWithPassword does. */
  adoptSignIn(answer: SignInResponse): AuthUser {
    return this.#session.acceptSignIn(answer);
  }

  /** Adopts a re-authentication through another door (a passkey): it must be the same person. */
  adoptReauthentication(answer: SignInResponse): void {
    if (answer.localId !== this.#session.currentUser().uid) throw new AuthError('user-mismatch');
    this.#session.acceptSignIn(answer);
  }

  /** Adopts the fresh session a change answered with (two-step turned on or off): same person, new tokens. */
  adoptNewTokens(answer: { idToken: string; expiresIn: string }): void {
    this.#session.adoptAccountChange(this.#session.currentUser(), answer);
  }

  async deleteAccount(): Promise<void> {
    const idToken = await this.#session.requireToken();
    await this.#session.guard(this.#calls.deleteAccount(idToken));
    await this.#session.endDeletedSession();
  }

  async #update(change: Omit<UpdateRequest, 'idToken'>): Promise<AuthUser> {
    const idToken = await this.#session.requireToken();
    const answer = await this.#session.guard(this.#calls.update({ idToken, ...change }));
    const user: AuthUser = { uid: answer.localId, email: answer.email, displayName: answer.displayName ?? null };
    // A new email or password starts a new session on the server: adopt its ID token.
    this.#session.adoptAccountChange(
      user,
      answer.idToken === undefined ? undefined : { idToken: answer.idToken, expiresIn: answer.expiresIn },
    );
    return user;
  }
}

// One per session, so the password policy is asked once however many screens want it.
const accountSessions = new WeakMap<AuthSession, AccountSession>();

/** The account operations on `session`. */
export function accountSessionOf(session: AuthSession): AccountSession {
  let account = accountSessions.get(session);
  if (account === undefined) {
    account = new AccountSession(session);
    accountSessions.set(session, account);
  }
  return account;
}
