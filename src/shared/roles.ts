/**
 * Roles, least to most (docs/product.md, Roles). The server decides what each may do
 * (src/server/roles/permissions.ts); the web app only uses this to show or hide what the
 * server would refuse anyway.
 */
export const ROLES = ['reader', 'contributor', 'author', 'editor', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** Roles an account may get by signing up without an invitation (NEW_ACCOUNT_ROLE). */
export const NEW_ACCOUNT_ROLES = ['author', 'contributor', 'reader'] as const satisfies readonly Role[];

/** What sign-up needs (SIGNUP). */
export const SIGNUP_POLICIES = ['open', 'invite', 'closed'] as const;
export type SignupPolicy = (typeof SIGNUP_POLICIES)[number];

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
