import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: the code in an invitation link. */
export function newInvitationCode(): string {
  return randomBytes(32).toString('base64url');
}

/** Anything else cannot be a code this server made: refused without a database look-up. */
export function isInvitationCodeShaped(code: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(code);
}

/** What the database keeps instead of the code. */
export function hashInvitationCode(code: string): string {
  return createHash('sha256').update(code).digest('base64url');
}

export function newInvitationId(): string {
  return randomBytes(12).toString('base64url');
}
