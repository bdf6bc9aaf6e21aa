import type { AuthState, AuthUser } from './authTypes.ts';
import { RESTORE_WAIT_MS, TOKEN_EXPIRY_BUFFER_MS } from './authTiming.ts';
import { AuthError, hasCode, invalidatesSession } from './errorCodes.ts';
import { expiryOf } from './idToken.ts';
import type { IdentityClient } from './identityClient.ts';
import type { PendingRevoke } from './pendingRevoke.ts';
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

export type AuthStateListener = (state: AuthState) => void;

interface HeldToken {
  idToken: string;
  expiresAt: number;
}

/**
 * The browser's sign-in session. State: unknown at load, then signedIn or signedOut.
 * The ID token lives only in this object's memory; the refresh token only in the HttpOnly cookie.
 * Holds what every page needs (restoring, the state, tokens, Log Out); signing in, signing up and
 * changing the account are in accountSession.ts, which only the account screens load (decision 0181).
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

  /** Stops timers and the tab channel (tests; the app keeps one session for its lifetime). */
  dispose(): void {
    this.#refresher.stop();
    this.#channel?.close();
    this.#listeners.clear();
  }

  // What the account operations (accountSession.ts, loaded with the account screens only) build on.

  /** The identity server's client. */
  get client(): IdentityClient {
    return this.#client;
  }

  /** Adopts a sign-in the server answered (password, sign-up, second step, passkey): a new session. */
  acceptSignIn(answer: { localId: string; email: string; displayName?: string; idToken: string; expiresIn: string }) {
    return this.#acceptSignIn(answer);
  }

  /**
   * Adopts a change of the signed-in account; `tokens` when the server started a new session
   * with it (a new email or password, two-step turned on or off).
   */
  adoptAccountChange(user: AuthUser, tokens?: { idToken: string; expiresIn: string | undefined }): void {
    const held = tokens === undefined ? this.#token : this.#hold(tokens.idToken, tokens.expiresIn);
    if (held === null) throw new AuthError('no-current-user');
    this.#signedIn(user, held);
    this.#tell({ type: 'userChanged' });
  }

  /** After the server deleted the account: signed out here and in other tabs, the cookie cleared. */
  async endDeletedSession(): Promise<void> {
    this.#endedHere = true;
    this.#signedOutLocally();
    this.#tell({ type: 'signedOut' });
    // The server already ended every session of the deleted user; this only clears the cookie.
    await this.#client.revokeSession().catch(() => undefined);
  }

  /** A fresh ID token; rejects with no-current-user when signed out. */
  async requireToken(): Promise<string> {
    const idToken = await this.getIdToken();
    if (idToken === null) throw new AuthError('no-current-user');
    return idToken;
  }

  /** The signed-in user; rejects with no-current-user when signed out. */
  currentUser(): AuthUser {
    if (this.#state.status !== 'signedIn') throw new AuthError('no-current-user');
    return this.#state.user;
  }

  /** Disabled accounts and dead sessions sign the user out wherever they show up. */
  async guard<T>(pending: Promise<T>): Promise<T> {
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
