import type { AuthState, AuthUser } from './authTypes.ts';
import { RESTORE_WAIT_MS, TOKEN_EXPIRY_BUFFER_MS } from './authTiming.ts';
import { AuthError, hasCode, invalidatesSession } from './errorCodes.ts';
import { expiryOf } from './idToken.ts';
import type { IdentityClient, SignInResponse } from './identityClient.ts';
import type { PendingRevoke } from './pendingRevoke.ts';
import { needsSecondStep, SecondStepNeeded } from './secondStep.ts';
import type { SessionHint } from './sessionHint.ts';
import { TokenRefresher } from './tokenRefresher.ts';

/** The name of the channel tabs use to tell each other "the session changed" (never tokens). */
export const AUTH_CHANNEL_NAME = 'inkwell-auth';

type TabMessage = { type: 'signedIn' } | { type: 'signedOut' } | { type: 'userChanged' };

export interface ChannelLike {
  postMessage(message: TabMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<TabMessage>) => void): void;
  close(): void;
}

export interface AuthSessionOptions {
  client: IdentityClient;
  /** Other tabs of this origin; null where BroadcastChannel is missing. */
  channel?: ChannelLike | null;
  now?: () => number;
  /** Lets restore() skip the server when this browser never signed in; absent: always ask. */
  hint?: SessionHint;
  /** Remembers a Log Out the server did not hear, so the next load ends that session; absent: no retry. */
  pendingRevoke?: PendingRevoke;
}

/** docs/product.md (Rules): the password minimum when the server's policy sets none. */
export const DEFAULT_MIN_PASSWORD_LENGTH = 6;

export type AuthStateListener = (state: AuthState) => void;

interface HeldToken {
  idToken: string;
  expiresAt: number;
}

/**
 * The browser's sign-in session. State: unknown at load, then signedIn or signedOut.
 * The ID token lives only in this object's memory; the refresh token only in the HttpOnly cookie.
 */
export class AuthSession {
  readonly #client: IdentityClient;
  readonly #channel: ChannelLike | null;
  readonly #now: () => number;
  readonly #hint: SessionHint | null;
  readonly #pendingRevoke: PendingRevoke | null;
  readonly #refresher: TokenRefresher;
  readonly #listeners = new Set<AuthStateListener>();
  #state: AuthState = { status: 'unknown', user: null };
  #token: HeldToken | null = null;
  #refreshing: Promise<{ held: HeldToken; uid: string }> | null = null;
  #policyMinLength: Promise<number> | null = null;
  #endedHere = false;

  constructor(options: AuthSessionOptions) {
    this.#client = options.client;
    this.#channel = options.channel ?? null;
    this.#now = options.now ?? Date.now;
    this.#hint = options.hint ?? null;
    this.#pendingRevoke = options.pendingRevoke ?? null;
    this.#refresher = new TokenRefresher({
      refresh: async () => (await this.#refresh()).expiresAt,
      // Only a session that still exists is worth another try.
      shouldRetry: () => this.#state.status === 'signedIn',
      now: this.#now,
    });
    this.#channel?.addEventListener('message', (event) => void this.#onTabMessage(event.data));
  }

  get state(): AuthState {
    return this.#state;
  }

  /** True when the current signed-out state came from this tab's own Log Out or account deletion. */
  get endedByUser(): boolean {
    return this.#state.status === 'signedOut' && this.#endedHere;
  }

  /** Calls `listener` on every state change; returns the unsubscribe function. */
  onAuthStateChanged(listener: AuthStateListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** At load (and when another tab signs in): asks the server whether the cookie holds a live session. */
  async restore({ askServer = false }: { askServer?: boolean } = {}): Promise<void> {
    if (this.#pendingRevoke?.isPending()) {
      // The person logged out; the server did not hear it. End that session before anything can use it.
      try {
        await this.#client.revokeSession();
        this.#pendingRevoke.remember(false);
      } catch {
        // Still unreachable: stay signed out and try again at the next load.
      }
      this.#signedOutLocally();
      return;
    }
    if (!askServer && this.#hint !== null && !this.#hint.mayHaveSession()) {
      this.#signedOutLocally();
      return;
    }
    const asked = this.#askServerForSession();
    // Screens wait for a known state (docs/product.md, Screens). A server slow to answer must not leave them blank
    // until the request timeouts (twice 30 s): after RESTORE_WAIT_MS the page goes on signed out
    // for now, the hint kept, and a late answer still signs the tab in.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, RESTORE_WAIT_MS);
    });
    await Promise.race([asked, waited]);
    clearTimeout(timer);
    if (this.#state.status === 'unknown') this.#signedOutLocally({ forgetHint: false });
  }

  async #askServerForSession(): Promise<void> {
    try {
      const { held } = await this.#fetchToken();
      const profile = await this.#client.lookup(held.idToken);
      this.#signedIn({ uid: profile.localId, email: profile.email, displayName: profile.displayName ?? null }, held);
    } catch (error) {
      const unreachable = hasCode(error, 'network-request-failed');
      // A tab that is signed in stays so when only the network failed (its timer retries).
      if (unreachable && this.#state.status === 'signedIn') return;
      // Only the server's "no" clears the hint; an outage must not forget a live session.
      this.#signedOutLocally({ forgetHint: !unreachable });
    }
  }

  /** `inviteCode`: an invitation's code (`/signup?invite=CODE`). */
  async createUser(email: string, password: string, inviteCode?: string): Promise<AuthUser> {
    const answer = await this.#client.signUp(email, password, inviteCode);
    return this.#acceptSignIn(answer);
  }

  /** Rejects with SecondStepNeeded when the account has two-step verification: finishSecondStep() goes on. */
  async signIn(email: string, password: string): Promise<AuthUser> {
    const answer = await this.#client.signInWithPassword(email, password);
    if (needsSecondStep(answer)) throw new SecondStepNeeded(answer);
    return this.#acceptSignIn(answer);
  }

  /**
   * Finishes a sign-in (or a re-authentication) that SecondStepNeeded held up, with a 6-digit code
   * or a recovery code.
   */
  async finishSecondStep(pending: SecondStepNeeded, code: string): Promise<AuthUser> {
    const answer = await this.#client.post<SignInResponse>('v2/accounts/mfaSignIn:finalize', {
      mfaPendingCredential: pending.pendingCredential,
      mfaEnrollmentId: pending.enrollmentId,
      totpVerificationInfo: { verificationCode: code },
    });
    if (this.#state.status === 'signedIn' && this.#state.user.uid !== answer.localId) {
      throw new AuthError('user-mismatch');
    }
    return this.#acceptSignIn(answer);
  }

  /** Ends the session on the server first (the cookie's refresh token dies), then here and in other tabs. */
  async signOut(): Promise<void> {
    try {
      await this.#client.revokeSession();
    } catch (error) {
      this.#pendingRevoke?.remember(true);
      throw error;
    } finally {
      this.#endedHere = true;
      this.#signedOutLocally();
      this.#tell({ type: 'signedOut' });
    }
  }

  /** A fresh-enough ID token, refreshed first if it counts as expired; null when signed out. */
  async getIdToken(): Promise<string | null> {
    if (this.#token === null) return null;
    if (this.#now() < this.#token.expiresAt - TOKEN_EXPIRY_BUFFER_MS) return this.#token.idToken;
    try {
      return (await this.#refresh()).idToken;
    } catch (error) {
      if (invalidatesSession(error)) return null;
      throw error;
    }
  }

  /** The minimum password length the server enforces (docs/product.md: 6 when the policy sets none). */
  async passwordMinLength(): Promise<number> {
    this.#policyMinLength ??= this.#client
      .getPasswordPolicy()
      .then((policy) => policy.customStrengthOptions?.minPasswordLength ?? DEFAULT_MIN_PASSWORD_LENGTH)
      .catch(() => {
        this.#policyMinLength = null; // ask again next time
        return DEFAULT_MIN_PASSWORD_LENGTH;
      });
    return this.#policyMinLength;
  }

  sendPasswordResetEmail(email: string): Promise<void> {
    return this.#client.sendPasswordResetEmail(email);
  }

  verifyPasswordResetCode(oobCode: string): Promise<string> {
    return this.#client.verifyPasswordResetCode(oobCode);
  }

  async confirmPasswordReset(oobCode: string, newPassword: string): Promise<void> {
    await this.#client.confirmPasswordReset(oobCode, newPassword);
  }

  /** Whether the signed-in account's address is verified, as the server knows it now. */
  async isEmailVerified(): Promise<boolean> {
    const idToken = await this.#requireToken();
    return (await this.#guard(this.#client.lookup(idToken))).emailVerified;
  }

  /** Mails the signed-in account's address a verification link. */
  async sendEmailVerification(): Promise<void> {
    const idToken = await this.#requireToken();
    await this.#guard(this.#client.sendEmailVerification(idToken));
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
    const answer = await this.#client.applyActionCode(oobCode);
    if (mode !== 'verifyEmail' && this.#state.status === 'signedIn') {
      await this.signOut().catch(() => undefined);
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

  /** Proves the person is still there (for requires-recent-login): signs in again as the same user. */
  async reauthenticate(password: string): Promise<void> {
    const user = this.#currentUser();
    const answer = await this.#guard(this.#client.signInWithPassword(user.email, password));
    if (answer.localId !== user.uid) throw new AuthError('user-mismatch');
    if (needsSecondStep(answer)) throw new SecondStepNeeded(answer);
    this.#acceptSignIn(answer);
  }

  /** A call of a feature beyond this class (passkeys); a dead session signs out as it does elsewhere. */
  callIdentity<T>(path: string, body: object): Promise<T> {
    return this.#guard(this.#client.post<T>(path, body));
  }

  /** Adopts a sign-in another door (a passkey) answered as signInWithPassword does. */
  adoptSignIn(answer: SignInResponse): AuthUser {
    return this.#acceptSignIn(answer);
  }

  /** Adopts a re-authentication through another door (a passkey): it must be the same person. */
  adoptReauthentication(answer: SignInResponse): void {
    if (answer.localId !== this.#currentUser().uid) throw new AuthError('user-mismatch');
    this.#acceptSignIn(answer);
  }

  /** Adopts the fresh session a change answered with (two-step turned on or off): same person, new tokens. */
  adoptNewTokens(answer: { idToken: string; expiresIn: string }): void {
    this.#signedIn(this.#currentUser(), this.#hold(answer.idToken, answer.expiresIn));
    this.#tell({ type: 'userChanged' });
  }

  async deleteAccount(): Promise<void> {
    const idToken = await this.#requireToken();
    await this.#guard(this.#client.deleteAccount(idToken));
    this.#endedHere = true;
    this.#signedOutLocally();
    this.#tell({ type: 'signedOut' });
    // The server already ended every session of the deleted user; this only clears the cookie.
    await this.#client.revokeSession().catch(() => undefined);
  }

  /** Stops timers and the tab channel (tests; the app keeps one session for its lifetime). */
  dispose(): void {
    this.#refresher.stop();
    this.#channel?.close();
    this.#listeners.clear();
  }

  async #update(change: { displayName?: string; email?: string; password?: string }): Promise<AuthUser> {
    const idToken = await this.#requireToken();
    const answer = await this.#guard(this.#client.update({ idToken, ...change }));
    const user: AuthUser = {
      uid: answer.localId,
      email: answer.email,
      displayName: answer.displayName ?? null,
    };
    // A new email or password starts a new session on the server: adopt its ID token.
    const held = answer.idToken === undefined ? this.#token : this.#hold(answer.idToken, answer.expiresIn);
    if (held === null) throw new AuthError('no-current-user');
    this.#signedIn(user, held);
    this.#tell({ type: 'userChanged' });
    return user;
  }

  #acceptSignIn(answer: { localId: string; email: string; displayName?: string; idToken: string; expiresIn: string }) {
    const user: AuthUser = { uid: answer.localId, email: answer.email, displayName: answer.displayName ?? null };
    // The new cookie replaced the old one, and the server ended the session the old one held.
    this.#pendingRevoke?.remember(false);
    this.#signedIn(user, this.#hold(answer.idToken, answer.expiresIn));
    this.#tell({ type: 'signedIn' });
    return user;
  }

  #hold(idToken: string, expiresIn: string | undefined): HeldToken {
    return { idToken, expiresAt: expiryOf(idToken, expiresIn, this.#now()) };
  }

  /** Exchanges the cookie for a new ID token. One exchange at a time: concurrent callers share it. */
  #fetchToken(): Promise<{ held: HeldToken; uid: string }> {
    this.#refreshing ??= (async () => {
      try {
        const answer = await this.#client.refreshFromCookie();
        return { held: this.#hold(answer.id_token, answer.expires_in), uid: answer.user_id };
      } catch (error) {
        // A dead refresh token can never be refreshed again: that session is over.
        if (
          (invalidatesSession(error) || hasCode(error, 'invalid-refresh-token')) &&
          this.#state.status === 'signedIn'
        ) {
          this.#signedOutLocally();
          this.#tell({ type: 'signedOut' });
        }
        throw error;
      } finally {
        this.#refreshing = null;
      }
    })();
    return this.#refreshing;
  }

  /** A new ID token for the signed-in user (the proactive timer and getIdToken use it). */
  async #refresh(): Promise<HeldToken> {
    const { held, uid } = await this.#fetchToken();
    if (this.#state.status !== 'signedIn') throw new AuthError('no-current-user');
    if (this.#state.user.uid !== uid) {
      // Another tab signed in as someone else and the shared cookie moved on: follow it.
      void this.restore();
      throw new AuthError('user-mismatch');
    }
    this.#token = held;
    this.#refresher.start(held.expiresAt);
    return held;
  }

  async #requireToken(): Promise<string> {
    const idToken = await this.getIdToken();
    if (idToken === null) throw new AuthError('no-current-user');
    return idToken;
  }

  #currentUser(): AuthUser {
    if (this.#state.status !== 'signedIn') throw new AuthError('no-current-user');
    return this.#state.user;
  }

  /** Disabled accounts and dead sessions sign the user out wherever they show up. */
  async #guard<T>(pending: Promise<T>): Promise<T> {
    try {
      return await pending;
    } catch (error) {
      if (invalidatesSession(error) && this.#state.status === 'signedIn') {
        this.#signedOutLocally();
        this.#tell({ type: 'signedOut' });
      }
      throw error;
    }
  }

  #signedIn(user: AuthUser, held: HeldToken): void {
    this.#endedHere = false;
    this.#hint?.remember(true);
    this.#token = held;
    this.#refresher.start(held.expiresAt);
    this.#setState({ status: 'signedIn', user });
  }

  #signedOutLocally({ forgetHint = true }: { forgetHint?: boolean } = {}): void {
    if (forgetHint) this.#hint?.remember(false);
    this.#token = null;
    this.#refresher.stop();
    if (this.#state.status !== 'signedOut') this.#setState({ status: 'signedOut', user: null });
  }

  #setState(state: AuthState): void {
    this.#state = state;
    for (const listener of this.#listeners) listener(state);
  }

  #tell(message: TabMessage): void {
    this.#channel?.postMessage(message);
  }

  /** Another tab changed the session: sign-outs apply at once; anything else is re-read from the server. */
  async #onTabMessage(message: TabMessage): Promise<void> {
    if (message.type === 'signedOut') {
      this.#signedOutLocally();
      return;
    }
    // The message itself says a session exists: localStorage (the hint) may not have caught up yet.
    await this.restore({ askServer: true });
  }
}
