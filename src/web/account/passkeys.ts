import type { PasskeyListResponse, PasskeyOptionsResponse, PasskeyView } from '../../shared/passkeyProtocol.ts';
import type { AuthSession } from '../auth/authSession.ts';
import type { SignInResponse } from '../auth/identityClient.ts';
import { AuthError } from '../auth/errorCodes.ts';
import { passkeyMessages } from './passkeyMessages.ts';
import { passkeyDeviceName } from './passkeyDeviceName.ts';

// Type-only: erased from the bundle. The library itself loads on demand (webAuthn below), so
// pages that never touch passkeys never download it.
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { accountSessionOf } from '../auth/accountSession.ts';

export type { PasskeyView };

const webAuthn = () => import('@simplewebauthn/browser');

/**
 * Why a passkey step failed: the person closed the browser's prompt (or another prompt replaced
 * it), the browser or site cannot do passkeys, the server refused the passkey, or anything else.
 */
export type PasskeyFailure = 'cancelled' | 'unsupported' | 'refused' | 'failed';

/** A passkey step that failed, with the text to show the person. */
export class PasskeyError extends Error {
  override name = 'PasskeyError';
  readonly failure: PasskeyFailure;
  constructor(message: string, failure: PasskeyFailure, cause?: unknown) {
    super(message, { cause });
    this.failure = failure;
  }
}

/** Without loading anything: does this browser have WebAuthn at all (and a secure context)? */
export function browserHasPasskeys(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function';
}

/** Whether the email field may offer passkeys in its autofill (conditional UI). */
export async function browserOffersPasskeyAutofill(): Promise<boolean> {
  if (!browserHasPasskeys()) return false;
  return (await webAuthn()).browserSupportsWebAuthnAutofill();
}

/** Ends a waiting autofill request (the login screen is going away). */
export async function cancelPasskeyRequest(): Promise<void> {
  if (browserHasPasskeys()) (await webAuthn()).WebAuthnAbortService.cancelCeremony();
}

const serverMessages: Record<string, string> = {
  PASSKEY_NOT_FOUND: passkeyMessages.notRecognised,
  INVALID_PASSKEY_CHALLENGE: passkeyMessages.expired,
  PASSKEY_EXISTS: passkeyMessages.alreadyAdded,
  USER_DISABLED: passkeyMessages.disabled,
  TOO_MANY_ATTEMPTS_TRY_LATER: passkeyMessages.tooMany,
  UNVERIFIED_EMAIL: passkeyMessages.verifyFirst,
};

/** The person-readable reason for a failure of the browser's prompt or of the server. */
function explain(error: unknown): PasskeyError {
  if (error instanceof PasskeyError) return error;
  if (error instanceof AuthError) {
    // Needs a fresh sign-in: the caller asks for one, so the original error goes on.
    if (error.code === 'requires-recent-login') throw error;
    return new PasskeyError(serverMessages[error.serverCode ?? ''] ?? passkeyMessages.failed, 'refused', error);
  }
  const name = error instanceof Error ? error.name : '';
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return new PasskeyError(passkeyMessages.alreadyAdded, 'refused', error);
  }
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'NotAllowedError' || name === 'AbortError') {
    return new PasskeyError(passkeyMessages.cancelled, 'cancelled', error);
  }
  // An IP address or another host than PUBLIC_URL's cannot be a relying party: no passkeys here either.
  if (name === 'NotSupportedError' || name === 'SecurityError' || code === 'ERROR_INVALID_DOMAIN') {
    return new PasskeyError(passkeyMessages.unsupported, 'unsupported', error);
  }
  return new PasskeyError(passkeyMessages.failed, 'failed', error);
}

async function attempt<T>(steps: () => Promise<T>): Promise<T> {
  if (!browserHasPasskeys()) throw new PasskeyError(passkeyMessages.unsupported, 'unsupported');
  try {
    return await steps();
  } catch (error) {
    throw explain(error);
  }
}

async function requireToken(session: AuthSession): Promise<string> {
  const idToken = await session.getIdToken();
  if (idToken === null) throw new AuthError('no-current-user');
  return idToken;
}

/** The browser's prompt for a passkey, checked by the server; answers like signInWithPassword. */
async function provePasskey(session: AuthSession, options: SignInOptions & { idToken?: string }) {
  const { startAuthentication } = await webAuthn();
  const start = options.idToken === undefined ? {} : { idToken: options.idToken };
  const started = await accountSessionOf(session).callIdentity<
    PasskeyOptionsResponse<PublicKeyCredentialRequestOptionsJSON>
  >('v1/passkeys:startSignIn', start);
  // The browser keeps one request at a time: a newer one (the button's) must not be replaced by this.
  if (options.stillWanted?.() === false) throw new PasskeyError(passkeyMessages.cancelled, 'cancelled');
  const credential = await startAuthentication({
    optionsJSON: started.options,
    useBrowserAutofill: options.autofill ?? false,
  });
  return accountSessionOf(session).callIdentity<SignInResponse>('v1/passkeys:finishSignIn', { ...start, credential });
}

interface SignInOptions {
  /** Offer the passkeys in the email field's autofill (conditional UI) instead of a prompt. */
  autofill?: boolean;
  /** Asked just before the browser's request starts: false gives it up. */
  stillWanted?: () => boolean;
}

/** Signs in with a passkey the person picks (from the button, or from the email field's autofill). */
export function signInWithPasskey(session: AuthSession, options: SignInOptions = {}) {
  return attempt(async () => accountSessionOf(session).adoptSignIn(await provePasskey(session, options)));
}

/** Proves it is still the signed-in person (for requires-recent-login) with one of their passkeys. */
export function reauthenticateWithPasskey(session: AuthSession): Promise<void> {
  return attempt(async () => {
    const answer = await provePasskey(session, { idToken: await requireToken(session) });
    accountSessionOf(session).adoptReauthentication(answer);
  });
}

/** Makes a passkey on this device for the signed-in account (needs a recent sign-in). */
export function addPasskey(session: AuthSession): Promise<PasskeyView> {
  return attempt(async () => {
    const { startRegistration } = await webAuthn();
    const idToken = await requireToken(session);
    const started = await accountSessionOf(session).callIdentity<
      PasskeyOptionsResponse<PublicKeyCredentialCreationOptionsJSON>
    >('v1/passkeys:startRegistration', { idToken });
    const credential = await startRegistration({ optionsJSON: started.options });
    const finished = await accountSessionOf(session).callIdentity<{ passkey: PasskeyView }>(
      'v1/passkeys:finishRegistration',
      {
        idToken: await requireToken(session),
        credential,
        name: passkeyDeviceName(navigator),
      },
    );
    return finished.passkey;
  });
}

export async function listPasskeys(session: AuthSession): Promise<PasskeyView[]> {
  const idToken = await requireToken(session);
  return (await accountSessionOf(session).callIdentity<PasskeyListResponse>('v1/passkeys:list', { idToken })).passkeys;
}

export async function renamePasskey(session: AuthSession, credentialId: string, name: string): Promise<void> {
  const idToken = await requireToken(session);
  await accountSessionOf(session).callIdentity('v1/passkeys:rename', { idToken, credentialId, name });
}

export async function removePasskey(session: AuthSession, credentialId: string): Promise<void> {
  const idToken = await requireToken(session);
  await accountSessionOf(session).callIdentity('v1/passkeys:remove', { idToken, credentialId });
}
