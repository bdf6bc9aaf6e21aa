import type { SignupPolicy, Role } from '../../shared/roles.ts';
import { IdentityError, type SignUpGate } from '../identity/createIdentity.ts';
import type { Invitations } from './invitations.ts';

/**
 * SIGNUP as identity's sign-up gate: `open` admits anyone as NEW_ACCOUNT_ROLE (or with an
 * invitation, as its role); `invite` only with a valid invitation; `closed` no one. A refusal
 * is ADMIN_ONLY_OPERATION with the reason as its text (src/shared/invitations.ts).
 */
export function signUpPolicy(deps: {
  policy: SignupPolicy;
  newAccountRole: Role;
  invitations: Invitations;
}): SignUpGate {
  const refuse = (reason: string) => new IdentityError('ADMIN_ONLY_OPERATION', { detail: reason });
  return {
    async admit({ email, inviteCode }) {
      if (deps.policy === 'closed') throw refuse('SIGNUP_CLOSED');
      if (inviteCode === undefined || inviteCode === '') {
        if (deps.policy === 'invite') throw refuse('INVITATION_REQUIRED');
        return { role: deps.newAccountRole };
      }
      const found = await deps.invitations.lookUp(inviteCode, email);
      if (!found.ok) throw refuse(found.reason);
      const { invitation } = found;
      // An invitation sent to one address grants its role to whoever proves that address, not
      // to whoever typed it first: until then the account only reads (decision 0551).
      const bound = invitation.email !== null;
      return {
        role: bound ? 'reader' : invitation.role,
        claimableRole: bound ? invitation.role : undefined,
        async claim(uid, trx) {
          if (!(await deps.invitations.claim(invitation, uid, trx))) {
            throw refuse('INVITATION_USED');
          }
        },
      };
    },
  };
}
