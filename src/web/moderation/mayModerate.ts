import { can, roleAtLeast, type Role } from '../../shared/roles.ts';

// Only what screens offer: the server's 403 decides (src/server/roles/permissions.ts).

/** Hide, Restore, and Edit, Publish and Delete on any article, the review queue (editors and up, DESIGN.md §8.1). */
export function mayModerate(role: Role | null | undefined): boolean {
  return !!role && roleAtLeast(role, 'editor');
}

/** The open reports, resolved with Hide or Dismiss. */
export function mayHandleReports(role: Role | null | undefined): boolean {
  return !!role && can(role, 'reports:handle');
}

/** The audit log (owners). */
export function mayReadAudit(role: Role | null | undefined): boolean {
  return !!role && can(role, 'audit:read');
}
