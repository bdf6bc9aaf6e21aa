import { ApiError, errorFromResponse } from './apiError.ts';

/**
 * How long a call may take, answer included, before it counts as failed (status 0): well inside
 * the 30 s within which a stalled screen must say so (issue 15), and long enough for a page of
 * articles over a slow phone connection. Uploads opt out (their size, not the server, sets the time).
 */
export const API_TIMEOUT_MS = 20_000;

/** Supplies the signed-in user's ID token (useAuth().getIdToken), or null when signed out. */
export type TokenSource = () => Promise<string | null>;

export interface ApiCallOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, with its own type (an image upload); no timeout. */
  upload?: Blob;
  /** The caller must be signed in: the call fails with 401 before any request when it is not. */
  token?: TokenSource;
  /** Another origin than the page's (the tests' server). */
  baseUrl?: string;
}

/**
 * The web app's one caller of the server's `/api`: bearer token, JSON in and out, timeout, problem
 * bodies as ApiError, 204 as undefined. Deliberately free of libraries: the home page loads it.
 */
export async function callApi<T>(method: string, path: string, options: ApiCallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) {
    const token = await options.token();
    if (!token) throw new ApiError('Not signed in', 401);
    headers.authorization = `Bearer ${token}`;
  }
  let body: Blob | string | undefined;
  if (options.upload) {
    headers['content-type'] = options.upload.type;
    body = options.upload;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(`${options.baseUrl ?? ''}/api${path}`, {
      method,
      headers,
      body,
      // A stalled call ends (and the screen offers Retry) rather than loading forever.
      signal: options.upload ? undefined : AbortSignal.timeout(API_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new ApiError(cause instanceof Error ? cause.message : 'Network failure', 0);
  }
  if (!response.ok) throw await errorFromResponse(response);
  if (response.status === 204) return undefined as T;
  try {
    return (await response.json()) as T;
  } catch (cause) {
    // A body cut off mid-way or not JSON: as good as no answer.
    throw new ApiError(cause instanceof Error ? cause.message : 'Unreadable answer', 0);
  }
}
