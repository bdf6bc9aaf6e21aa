import type {
  CreatedInvitationJson,
  InvitationCheckJson,
  InvitationJson,
  MemberJson,
} from '../../shared/invitations.ts';
import type { Role } from '../../shared/roles.ts';
import { API_TIMEOUT_MS, type TokenSource } from '../articles/articlesApi.ts';
import { ArticlesApiError, errorFromResponse } from '../articles/articlesApiError.ts';

/** One call of the invitations and members APIs (docs/architecture.md); failures are ArticlesApiError. */
async function call<T>(method: string, path: string, init: { body?: unknown; token?: TokenSource } = {}): Promise<T> {
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

export interface MembersPage {
  members: MemberJson[];
  nextCursor: string | null;
}

export const rolesApi = {
  /** What an invitation link grants (anonymous; the code goes in the body, never in a URL). */
  checkInvitation: (code: string) => call<InvitationCheckJson>('POST', '/invitations/check', { body: { code } }),
  members(token: TokenSource, q: string, cursor: string | null): Promise<MembersPage> {
    const query = new URLSearchParams();
    if (q) query.set('q', q);
    if (cursor) query.set('cursor', cursor);
    return call<MembersPage>('GET', `/members${query.size > 0 ? `?${query}` : ''}`, { token });
  },
  changeMember: (token: TokenSource, uid: string, change: { role?: Role; disabled?: boolean }) =>
    call<MemberJson>('PATCH', `/members/${encodeURIComponent(uid)}`, { token, body: change }),
  invitations: (token: TokenSource) => call<{ invitations: InvitationJson[] }>('GET', '/invitations', { token }),
  createInvitation: (token: TokenSource, input: { role: Role; email?: string }) =>
    call<CreatedInvitationJson>('POST', '/invitations', { token, body: input }),
  revokeInvitation: (token: TokenSource, id: string) =>
    call<void>('DELETE', `/invitations/${encodeURIComponent(id)}`, { token }),
};
