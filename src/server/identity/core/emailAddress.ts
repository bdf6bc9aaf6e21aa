/**
 * Emails are compared trimmed and case-insensitively; this is the stored form. The one rule
 * for both request parsing and lookups, so the two cannot drift apart.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
