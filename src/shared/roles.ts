/**
 * Roles, least to most (docs/product.md, Roles), and what each may do (`can`). The server
 * decides with this table, asking with the caller's role as the database holds it at that
 * request (the ID token's `role` claim is only a picture for clients), so a change takes effect
 * at once everywhere; the web app only uses it to show or hide what the server would refuse anyway.
 */
export const ROLES = ['reader', 'contributor', 'author', 'editor', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** Roles an account may get by signing up without an invitation (NEW_ACCOUNT_ROLE). */
export const NEW_ACCOUNT_ROLES = ['author', 'contributor', 'reader'] as const satisfies readonly Role[];

/** What sign-up needs (SIGNUP). */
export const SIGNUP_POLICIES = ['open', 'invite', 'closed'] as const;
export type SignupPolicy = (typeof SIGNUP_POLICIES)[number];

/** Who must turn two-step verification on before doing anything else (REQUIRE_TWO_STEP). */
export const TWO_STEP_REQUIREMENTS = ['none', 'editors'] as const;
export type TwoStepRequirement = (typeof TWO_STEP_REQUIREMENTS)[number];

/** The server's 403 detail under REQUIRE_TWO_STEP=editors; the web app recognises it to link the profile. */
export const TWO_STEP_REQUIRED =
  'Turn on two-step verification on your profile first: this site requires it for editors and owners.';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** 0 for reader … 4 for owner. */
export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** Whether `role` is `least` or above it. */
export function roleAtLeast(role: Role, least: Role): boolean {
  return roleRank(role) >= roleRank(least);
}

/** The role's name as people read it. */
export const roleLabels: Record<Role, string> = {
  reader: 'Reader',
  contributor: 'Contributor',
  author: 'Author',
  editor: 'Editor',
  owner: 'Owner',
};

/**
 * The highest role `actor` may give, by an invitation or a change of role (docs/product.md,
 * Roles): editors up to author, owners any; undefined: none.
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
 * Whether `actor` may change a member who has the role `target` now (role, disable, enable):
 * editors manage readers, contributors and authors; owners everyone.
 */
export function mayManage(actor: Role, target: Role): boolean {
  return mayGrant(actor, target);
}

/** Things a role may or may not do; the server's routes declare theirs with `requires(action)`. */
export type Action =
  /** Create, edit or delete one's own article. */
  | 'article:write'
  /** Publish (as opposed to saving a draft). */
  | 'article:publish'
  /** See and manage members, make and revoke invitations. */
  | 'members:manage'
  /** Edit, publish, hide, restore and delete any article; see every status (DESIGN.md §8.2). */
  | 'article:moderate'
  /** See the review queue (submitted drafts). */
  | 'article:review'
  /** See the open reports and resolve them (hide or dismiss). */
  | 'reports:handle'
  /** Read the audit log. */
  | 'audit:read'
  /** Download the whole site as a zip (GET /api/export, DESIGN.md §9.5). */
  | 'site:export'
  /** Comment on published articles; edit and delete one's own comments (DESIGN.md §9.2). */
  | 'comment:write'
  /** Approve, hide, restore and delete any comment; see pending and hidden ones (an article's author may on their own article). */
  | 'comment:moderate'
  /** See, search and remove newsletter subscribers; see the sends (DESIGN.md §9.3). */
  | 'subscribers:manage'
  /** See the fediverse followers; block and unblock domains and actors (DESIGN.md §9.4). */
  | 'fediverse:manage'
  /** Change the site settings: title, description, icon, accent colour, navigation, footer (DESIGN.md §9.6). */
  | 'site:configure';

const LEAST_ROLE_FOR: Record<Action, Role> = {
  'article:write': 'contributor',
  'article:publish': 'author',
  'members:manage': 'editor',
  'article:moderate': 'editor',
  'article:review': 'editor',
  'reports:handle': 'editor',
  'audit:read': 'owner',
  'site:export': 'owner',
  'comment:write': 'reader',
  'comment:moderate': 'editor',
  'subscribers:manage': 'editor',
  'fediverse:manage': 'editor',
  'site:configure': 'owner',
};

export function can(role: Role, action: Action): boolean {
  return roleAtLeast(role, LEAST_ROLE_FOR[action]);
}
