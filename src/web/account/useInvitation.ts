import { useEffect, useState } from 'react';
import type { InvitationCheckJson } from '../../shared/invitations.ts';
import { rolesApi } from '../api/rolesApi.ts';

export type InvitationState =
  { status: 'none' } | { status: 'checking' } | { status: 'failed' } | ({ status: 'checked' } & InvitationCheckJson);

/** What the invitation code of `/signup?invite=CODE` grants, asked once. */
export function useInvitation(code: string | null): InvitationState {
  const [state, setState] = useState<InvitationState>(code ? { status: 'checking' } : { status: 'none' });
  useEffect(() => {
    if (!code) return;
    let current = true;
    rolesApi.checkInvitation(code).then(
      (answer) => current && setState({ status: 'checked', ...answer }),
      () => current && setState({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [code]);
  return state;
}
