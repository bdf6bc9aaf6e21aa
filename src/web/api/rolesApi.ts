import type {
  CreatedInvitationJson,
  InvitationCheckJson,
  InvitationJson,
  MemberJson,
} from '../../shared/invitations.ts';
import type { Role } from '../../shared/roles.ts';
import { callApi as call, type TokenSource } from './callApi.ts';

export interface MembersPage {
  members: MemberJson[];
  nextCursor: string | null;
}

/** The invitations and members APIs (docs/architecture.md); failures are ApiError. */
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
