import { API_TIMEOUT_MS, type TokenSource } from './articlesApi.ts';
import { ArticlesApiError, errorFromResponse } from './articlesApiError.ts';

/**
 * One call of a signed-in screen's API (members, invitations, moderation): JSON both ways, the
 * session's token when `token` is given; failures are ArticlesApiError (status 0: no answer).
 * Kept apart from articlesApi's own caller, which the home page loads.
 */
export async function apiCall<T>(
  method: string,
  path: string,
  init: { body?: unknown; token?: TokenSource } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.token) {
    const token = await init.token();
    if (!token) throw new ArticlesApiError('Not signed in', 401);
    headers.authorization = `Bearer ${token}`;
  }
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new ArticlesApiError(cause instanceof Error ? cause.message : 'Network failure', 0);
  }
  if (!response.ok) throw await errorFromResponse(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
