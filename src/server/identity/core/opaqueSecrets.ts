import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes as base64url (43 characters): refresh tokens and reset codes. */
export function newOpaqueSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function isOpaqueSecretShaped(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** What the database keeps instead of the secret. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export function newId(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}
