/**
 * Uploaded images are stored without an origin (decision 0300): an article keeps
 * `/images/{id}/…` in its cover field, its Markdown and its rendered HTML, and every answer
 * builds the absolute URL from the PUBLIC_URL the server runs with now. A site tried out on
 * `http://localhost:3000` and then moved to its real address keeps its pictures.
 */
export interface ImageOrigin {
  /** The current PUBLIC_URL ('' for tools that write no uploaded images). */
  origin: string;
  /** `text` with this server's own image URLs made origin-free, as it is stored. */
  toStored(text: string): string;
  /** Stored `text` with its origin-free image paths made absolute under the current PUBLIC_URL. */
  toServed(text: string): string;
}

// The id segment of imageUrls.ts: 22 base64url characters.
const IMAGE_PATH = '/images/[A-Za-z0-9_-]{22}/';
// An origin-free image path starts a URL: at the start of the text, or after a character that
// cannot be part of a URL before it (space, quote, bracket, comma, equals sign).
const STORED_PATH = new RegExp(`(^|[\\s"'(<\\[,=])(${IMAGE_PATH})`, 'g');

/** Leaves text as it is: for tools that write articles with no uploaded images (imports, seeding). */
export const unchangedImageOrigin: ImageOrigin = { origin: '', toStored: (text) => text, toServed: (text) => text };

/** `publicUrl` is the origin without a trailing slash (config.publicUrl). */
export function imageOrigin(publicUrl: string): ImageOrigin {
  const ownUrl = new RegExp(`${escapeRegExp(publicUrl)}(${IMAGE_PATH})`, 'g');
  return {
    origin: publicUrl,
    toStored: (text) => text.replace(ownUrl, (_, path: string) => path),
    toServed: (text) => text.replace(STORED_PATH, (_, before: string, path: string) => before + publicUrl + path),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
