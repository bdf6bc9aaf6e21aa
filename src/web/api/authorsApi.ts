import type { AuthorProfile } from '../../shared/authorProfile.ts';
import { API_TIMEOUT_MS, type TokenSource } from './articlesApi.ts';
import { ArticlesApiError, errorFromResponse } from './articlesApiError.ts';

async function call(path: string, init: RequestInit = {}): Promise<AuthorProfile> {
  let response: Response;
  try {
    response = await fetch(`/api/authors/${path}`, { ...init, signal: AbortSignal.timeout(API_TIMEOUT_MS) });
  } catch (cause) {
    throw new ArticlesApiError(cause instanceof Error ? cause.message : 'Network failure', 0);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as AuthorProfile;
}

/** The authors API (decision 0420): a profile by slug or uid, and the author's own bio. */
export const authorsApi = {
  get: (slugOrUid: string) => call(encodeURIComponent(slugOrUid), { headers: { accept: 'application/json' } }),
  async setBio(uid: string, bio: string, token: TokenSource): Promise<AuthorProfile> {
    const idToken = await token();
    if (!idToken) throw new ArticlesApiError('Not signed in', 401);
    return call(encodeURIComponent(uid), {
      method: 'PUT',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify({ bio }),
    });
  },
};
