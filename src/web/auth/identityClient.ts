import type {
  LookupResponse,
  LookupUser,
  PasswordPolicyResponse,
  ResetPasswordResponse,
  SignInResponse,
  TokenResponse,
  UpdateAccountResponse,
} from '../../shared/identityProtocol.ts';
import type { UpdateAccountRequest } from '../../shared/identityRequests.ts';
import { SESSION_MODE_COOKIE_VALUE } from '../../shared/identityProtocol.ts';
import { AuthError, errorFromServerMessage } from './errorCodes.ts';

/**
 * A typed client of `/identity` in browser session mode (docs/architecture.md, sign-in protocol): every request says
 * `X-Inkwell-Session: cookie`, so the refresh token only ever travels in the HttpOnly
 * `inkwell_session` cookie and no response body carries it.
 */

export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

export interface IdentityClientOptions {
  fetch: FetchFunction;
  /** How long a request may take before it fails with `network-request-failed`. */
  timeoutMs: number;
  baseUrl?: string;
}

export type {
  ActionCodeInfoResponse,
  LookupUser,
  ResetPasswordResponse,
  SignInResponse,
  TokenResponse,
  UpdateAccountResponse,
} from '../../shared/identityProtocol.ts';

/** The fields of accounts:update this client changes (returnSecureToken is always sent). */
export type UpdateRequest = Pick<UpdateAccountRequest, 'idToken' | 'displayName' | 'email' | 'password'>;

export interface IdentityClient {
  signUp(email: string, password: string): Promise<SignInResponse>;
  signInWithPassword(email: string, password: string): Promise<SignInResponse>;
  lookup(idToken: string): Promise<LookupUser>;
  update(request: UpdateRequest): Promise<UpdateAccountResponse>;
  deleteAccount(idToken: string): Promise<void>;
  sendPasswordResetEmail(email: string): Promise<void>;
  /** Checks a reset code without using it (no newPassword); answers the account's email. */
  verifyPasswordResetCode(oobCode: string): Promise<string>;
  confirmPasswordReset(oobCode: string, newPassword: string): Promise<string>;
  /** Mails the signed-in account's address a verification link (VERIFY_EMAIL). */
  sendEmailVerification(idToken: string): Promise<void>;
  /** Applies a verify, change or recover code (the SDK's applyActionCode); answers the account as it is now. */
  applyActionCode(oobCode: string): Promise<UpdateAccountResponse>;
  /** Exchanges the session cookie for a fresh ID token. */
  refreshFromCookie(): Promise<TokenResponse>;
  /** Revokes the cookie's session on the server and clears the cookie. */
  revokeSession(): Promise<void>;
  /** The server's password policy (its minimum length is configurable). */
  getPasswordPolicy(): Promise<PasswordPolicyResponse>;
  /** Any other call (`v1/passkeys:list`...), for features with calls of their own. */
  post<T>(path: string, body: object): Promise<T>;
}

export function createIdentityClient(options: IdentityClientOptions): IdentityClient {
  const baseUrl = options.baseUrl ?? '/identity';

  async function call<T>(path: string, body: string | null, contentType: string): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    try {
      let response: Response;
      let payload: unknown;
      try {
        response = await options.fetch(`${baseUrl}/${path}`, {
          method: body === null ? 'GET' : 'POST',
          headers: {
            ...(body === null ? {} : { 'Content-Type': contentType }),
            'X-Inkwell-Session': SESSION_MODE_COOKIE_VALUE,
          },
          credentials: 'same-origin',
          ...(body === null ? {} : { body }),
          signal: controller.signal,
        });
        payload = await response.json();
      } catch {
        // Timeout, lost connection or a body that is not JSON: the protocol reads all of them as network failure.
        throw new AuthError('network-request-failed');
      }
      if (!response.ok) {
        const message = (payload as { error?: { message?: unknown } } | null)?.error?.message;
        throw typeof message === 'string' ? errorFromServerMessage(message) : new AuthError('internal-error');
      }
      if (payload === null || typeof payload !== 'object') throw new AuthError('internal-error');
      return payload as T;
    } finally {
      clearTimeout(timer);
    }
  }

  const post = <T>(path: string, body: object) => call<T>(path, JSON.stringify(body), 'application/json');

  return {
    signUp: (email, password) =>
      post<SignInResponse>('v1/accounts:signUp', { email, password, returnSecureToken: true }),
    signInWithPassword: (email, password) =>
      post<SignInResponse>('v1/accounts:signInWithPassword', { email, password, returnSecureToken: true }),
    async lookup(idToken) {
      const answer = await post<Partial<LookupResponse>>('v1/accounts:lookup', { idToken });
      const user = answer.users?.[0];
      if (user === undefined) throw new AuthError('internal-error');
      return user;
    },
    update: (request) => post<UpdateAccountResponse>('v1/accounts:update', { ...request, returnSecureToken: true }),
    async deleteAccount(idToken) {
      await post('v1/accounts:delete', { idToken });
    },
    async sendPasswordResetEmail(email) {
      await post('v1/accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email });
    },
    async verifyPasswordResetCode(oobCode) {
      return (await post<ResetPasswordResponse>('v1/accounts:resetPassword', { oobCode })).email;
    },
    async confirmPasswordReset(oobCode, newPassword) {
      return (await post<ResetPasswordResponse>('v1/accounts:resetPassword', { oobCode, newPassword })).email;
    },
    async sendEmailVerification(idToken) {
      await post('v1/accounts:sendOobCode', { requestType: 'VERIFY_EMAIL', idToken });
    },
    applyActionCode: (oobCode) => post<UpdateAccountResponse>('v1/accounts:update', { oobCode }),
    // Form-encoded as the protocol's token endpoint expects; no refresh_token field: the cookie carries it.
    refreshFromCookie: () =>
      call<TokenResponse>(
        'v1/token',
        new URLSearchParams({ grant_type: 'refresh_token' }).toString(),
        'application/x-www-form-urlencoded',
      ),
    async revokeSession() {
      await post('v2/accounts:revokeToken', { tokenType: 'REFRESH_TOKEN' });
    },
    getPasswordPolicy: () => call<PasswordPolicyResponse>('v2/passwordPolicy', null, ''),
    post,
  };
}
