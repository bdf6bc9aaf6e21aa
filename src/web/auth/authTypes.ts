/** What the rest of the web app may know about the signed-in person. */
export interface AuthUser {
  uid: string;
  email: string;
  displayName: string | null;
}

/**
 * unknown: still finding out at load (screens wait); signedIn / signedOut: known.
 * The contract between the auth client and every screen.
 */
export type AuthState =
  { status: 'unknown'; user: null } | { status: 'signedOut'; user: null } | { status: 'signedIn'; user: AuthUser };

export interface AuthContextValue {
  state: AuthState;
  /** A fresh-enough ID token for an API call (refreshed if it counts as expired), or null when signed out. */
  getIdToken(): Promise<string | null>;
}
