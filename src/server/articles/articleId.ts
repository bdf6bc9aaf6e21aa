import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ID_LENGTH = 20;
// The largest multiple of 62 that fits a byte: bytes at or above it are skipped so that
// every character is equally likely (about 119 bits of randomness per id).
const UNBIASED_LIMIT = 248;

/** A new article id: 20 random characters from [A-Za-z0-9]. */
export function newArticleId(): string {
  let id = '';
  while (id.length < ID_LENGTH) {
    for (const byte of randomBytes(32)) {
      if (byte < UNBIASED_LIMIT) id += ALPHABET[byte % ALPHABET.length];
      if (id.length === ID_LENGTH) break;
    }
  }
  return id;
}

/** True for text shaped like an id this server issues; anything else cannot name an article. */
export function isArticleId(value: string): boolean {
  return /^[A-Za-z0-9]{20}$/.test(value);
}

/**
 * True for text that may be an account id: 1-128 characters without control characters.
 * Accounts made here have 28-character ids; imported Firebase accounts keep theirs, which
 * Firebase allows up to 128 characters of nearly any kind.
 */
export function isAuthorId(value: string): boolean {
  return value.length >= 1 && value.length <= 128 && !/\p{Cc}/u.test(value);
}
