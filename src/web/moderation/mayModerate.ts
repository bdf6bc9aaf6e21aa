import { can, type Role } from '../../shared/roles.ts';

// Only what screens offer: the server's 403 decides (src/shared/roles.ts can()).

/** Hide and Restore, and Edit, Publish and Delete on any article (editors and up, DESIGN.md §8.2). */
export function mayModerate(role: Role | null | undefined): boolean {
  return !!role && can(role, 'article:moderate');
}

/** The review queue (submitted drafts). */
export function mayReview(role: Role | null | undefined): boolean {
  return !!role && can(role, 'article:review');
}

/** The open reports, resolved with Hide or Dismiss. */
export function mayHandleReports(role: Role | null | undefined): boolean {
  return !!role && can(role, 'reports:handle');
}

/** The audit log (owners). */
export function mayReadAudit(role: Role | null | undefined): boolean {
  return !!role && can(role, 'audit:read');
}
