import { randomBytes } from 'node:crypto';

/** A new image id: 128 random bits as 22 base64url characters, so image URLs cannot be guessed. */
export function newImageId(): string {
  return randomBytes(16).toString('base64url');
}

/** True for text shaped like an id this server issues. */
export function isImageId(value: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(value);
}
