import { roleAtLeast, roleRank, type Role } from '../../shared/roles.ts';

/**
 * What each role may do (docs/product.md, Roles): the one place the server asks. Every check
 * is made with the caller's role as the database holds it at that request (the ID token's
 * `role` claim is only a picture for clients), so a change takes effect at once everywhere.
 */
export type Action =
  /** Create, edit or delete one's own article. */
  | 'article:write'
  /** Publish (as opposed to saving a draft). */
  | 'article:publish'
  /** See and manage members, make and revoke invitations. */
  | 'members:manage';

const LEAST_ROLE_FOR: Record<Action, Role> = {
  'article:write': 'contributor',
  'article:publish': 'author',
  'members:manage': 'editor',
};

export function can(role: Role, action: Action): boolean {
  return roleAtLeast(role, LEAST_ROLE_FOR[action]);
}

/**
 * The highest role `actor` may give, by an invitation or a change of role: editors up to
 * author, owners any. undefined: none.
 */
export function highestRoleGrantable(actor: Role): Role | undefined {
  if (actor === 'owner') return 'owner';
  if (actor === 'editor') return 'author';
  return undefined;
}

/** Whether `actor` may give `role` (an invitation, or a member's new role). */
export function mayGrant(actor: Role, role: Role): boolean {
  const highest = highestRoleGrantable(actor);
  return highest !== undefined && roleRank(role) <= roleRank(highest);
}

/**
 * Whether `actor` may change a member who has `target` now (their role, disable or enable):
 * editors manage readers, contributors and authors; owners everyone.
 */
export function mayManage(actor: Role, target: Role): boolean {
  return mayGrant(actor, target);
}
