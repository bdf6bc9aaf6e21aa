import type {
  LookupResponse,
  LookupUser,
  PasswordPolicyResponse,
  TokenResponse,
} from '../../shared/identityProtocol.ts';
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

export interface IdentityClient {
  lookup(idToken: string): Promise<LookupUser>;
  /** Exchanges the session cookie for a fresh ID token. */
  refreshFromCookie(): Promise<TokenResponse>;
  /** Revokes the cookie's session on the server and clears the cookie. */
  revokeSession(): Promise<void>;
  /** The server's password policy (its minimum length is configurable). */
  getPasswordPolicy(): Promise<PasswordPolicyResponse>;
  /** Any other call (accountCalls.ts, `v1/passkeys:list`...), for features with calls of their own. */
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
    async lookup(idToken) {
      const answer = await post<Partial<LookupResponse>>('v1/accounts:lookup', { idToken });
      const user = answer.users?.[0];
      if (user === undefined) throw new AuthError('internal-error');
      return user;
    },
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
