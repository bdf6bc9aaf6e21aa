import type { Role } from './roles.ts';

/**
 * Why a sign-up was refused under the sign-up policy: the text after
 * `ADMIN_ONLY_OPERATION : ` in the protocol error, and the `reason` of an invitation check.
 */
export const SIGNUP_REFUSALS = [
  'SIGNUP_CLOSED',
  'INVITATION_REQUIRED',
  'INVITATION_INVALID',
  'INVITATION_USED',
  'INVITATION_EXPIRED',
  'INVITATION_REVOKED',
  'INVITATION_OTHER_ADDRESS',
] as const;
export type SignupRefusal = (typeof SIGNUP_REFUSALS)[number];

/** What people read for each refusal (the sign-up screen). */
export const signupRefusalMessages: Record<SignupRefusal, string> = {
  SIGNUP_CLOSED: 'Sign-up is closed.',
  INVITATION_REQUIRED: 'Sign-up is by invitation only.',
  INVITATION_INVALID: 'This invitation link is not valid. Check that you copied all of it, or ask for a new one.',
  INVITATION_USED: 'This invitation has already been used. Ask for a new one.',
  INVITATION_EXPIRED: 'This invitation has expired. Ask for a new one.',
  INVITATION_REVOKED: 'This invitation has been withdrawn. Ask for a new one.',
  INVITATION_OTHER_ADDRESS: 'This invitation is for another email address. Sign up with the address it was sent to.',
};

/** An invitation as the invitations API shows it (never its code, which only its link holds). */
export interface InvitationJson {
  id: string;
  role: Role;
  /** Only this address may use it; null: anyone with the link. */
  email: string | null;
  createdAt: string;
  expiresAt: string;
}

/** POST /api/invitations answers this: the link is shown once. */
export interface CreatedInvitationJson {
  id: string;
  url: string;
  role: Role;
  email: string | null;
  expiresAt: string;
  /** It was emailed to `email` (false: no address, or the mail could not be sent). */
  mailed: boolean;
}

/**
 * POST /api/invitations/check: what an invitation link grants, before signing up. `forAddress`:
 * it was sent to one address, which it does not name (whoever holds the link must know it, and
 * gets the role once they prove it).
 */
export type InvitationCheckJson =
  { valid: true; role: Role; forAddress: boolean; expiresAt: string } | { valid: false; reason: SignupRefusal };

/** A member as the members API shows one. */
export interface MemberJson {
  uid: string;
  displayName: string | null;
  email: string;
  role: Role;
  disabled: boolean;
  emailVerified: boolean;
  articleCount: number;
  createdAt: string;
}

/** How long an invitation can be used. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The sign-up and admin screens' own texts (beyond the spec's). */
export const rolesMessages = {
  invitedAs: (role: string) => `This invitation makes you ${/^[AEIOU]/.test(role) ? 'an' : 'a'} ${role}.`,
  checkingInvitation: 'Checking your invitation…',
  forAddress:
    'Sign up with the address the invitation was sent to; the role is yours once you confirm it from the email we send.',
  signUpWithoutInvitation: 'Sign up without the invitation',
  admin: 'Site administration',
  members: 'Members',
  invitations: 'Invitations',
  searchMembers: 'Search members',
  noMembers: 'No members match.',
  loadMore: 'Load more',
  articlesCount: (count: number) => `${count} article${count === 1 ? '' : 's'}`,
  disable: 'Disable',
  enable: 'Enable',
  disabled: 'Disabled',
  role: 'Role',
  emailOptional: 'Email (optional: only this address may use it)',
  createInvitation: 'Create invitation',
  copyLink: 'Copy link',
  copied: 'Copied',
  revoke: 'Revoke',
  noInvitations: 'No pending invitations.',
  newInvitation: 'New invitation: send this link. It is shown only once.',
  invitationMailed: (email: string) => `New invitation: we emailed this link to ${email}. It is shown only once.`,
  invitationNotMailed: (email: string) =>
    `New invitation: the email to ${email} could not be sent, so send this link yourself. It is shown only once.`,
  expires: (date: string) => `Expires ${date}`,
  anyAddress: 'Anyone with the link',
  changeFailed: 'The change could not be saved.',
  lastOwner: 'This is the last owner: make another member owner first.',
  loadFailed: 'Could not load. Please try again.',
} as const;
