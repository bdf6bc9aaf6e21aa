/**
 * Signing in with OpenID Connect providers, as the server and the web app both see it.
 * Dependency-free: the web client imports it.
 */
import { signupRefusalMessages } from './invitations.ts';

/** A configured provider, as `GET /identity/oauth/providers` lists it. */
export interface SignInProvider {
  /** `google.com`, `oidc.<id>`. */
  providerId: string;
  /** The button says "Continue with NAME". */
  name: string;
}

export interface SignInProvidersResponse {
  kind: 'inkwell#SignInProviders';
  providers: SignInProvider[];
}

/** `POST /identity/oauth/{providerId}/start` (Connect on the profile): where the browser goes next. */
export interface ProviderLinkStartResponse {
  kind: 'inkwell#ProviderLinkStart';
  authUri: string;
}

/** The browser flow's start path; `continuePath` is where the person lands afterwards. */
export function providerStartPath(providerId: string, continuePath?: string): string {
  const path = `/identity/oauth/${encodeURIComponent(providerId)}/start`;
  return continuePath === undefined ? path : `${path}?continue=${encodeURIComponent(continuePath)}`;
}

/** Why a browser sign-in with a provider failed: `/login?error=CODE`, and what the page says. */
export const PROVIDER_SIGN_IN_ERRORS = {
  provider_unknown: 'That sign-in provider is not available on this site.',
  provider_unavailable: 'The sign-in provider could not be reached. Please try again in a moment.',
  provider_refused: 'The sign-in provider did not confirm who you are. Please try again.',
  cancelled: 'Sign-in was cancelled at the provider.',
  state_invalid: 'That sign-in link has expired or was already used. Please start again.',
  account_exists:
    'An account with this email already exists. Log in with your password, then connect the provider from your profile.',
  already_linked: 'That provider account is already connected to another Inkwell account.',
  provider_already_linked: 'Your account is already connected to another account at that provider.',
  user_disabled: 'This account has been disabled.',
  too_many_attempts: 'Too many attempts. Please try again later.',
  no_email: 'The sign-in provider did not share an email address, which an account needs.',
  sign_in_again: 'Please log in again before connecting a provider.',
  verify_first: 'Verify your email address first, then connect the provider.',
  two_step_required: 'This account uses two-step verification. Log in with your password to enter your code.',
  // A new account refused by the sign-up policy (SIGNUP=invite|closed): the sign-up screen's sentences.
  signup_closed: signupRefusalMessages.SIGNUP_CLOSED,
  invitation_required: signupRefusalMessages.INVITATION_REQUIRED,
  server_error: 'Something went wrong on our side. Please try again.',
} as const;

export type ProviderSignInError = keyof typeof PROVIDER_SIGN_IN_ERRORS;

export function providerSignInErrorMessage(code: string | null): string | undefined {
  if (code === null) return undefined;
  return Object.hasOwn(PROVIDER_SIGN_IN_ERRORS, code)
    ? PROVIDER_SIGN_IN_ERRORS[code as ProviderSignInError]
    : PROVIDER_SIGN_IN_ERRORS.server_error;
}
