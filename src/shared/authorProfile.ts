import { foldText } from './tags.ts';

/**
 * Author profiles (decision 0420): what an author page shows besides the articles, the bio's
 * rule and how a display name becomes the page's URL, shared by the server and the web app.
 */

/** A bio is a short plain-text line or two under the name, like a social profile's. */
export const AUTHOR_BIO_MAX_LENGTH = 280;

/** Long names make long URLs; the slug keeps their start. */
export const AUTHOR_SLUG_MAX_LENGTH = 60;

/** The author as `GET /api/authors/:uidOrSlug` answers and the author page shows them. */
export interface AuthorProfile {
  uid: string;
  /** The display name; null when they have not set one. */
  name: string | null;
  /** The current slug: the page is `/author/{slug}`. */
  slug: string;
  /** Plain text, '' when not set. */
  bio: string;
  /** Absolute URL, or null (the page shows the initial instead). */
  photoUrl: string | null;
  articleCount: number;
}

/**
 * The slug of a display name: lower case, diacritics removed, letters and digits of any script
 * kept, every run of anything else one `-`; `author` when nothing is left. The server adds
 * `-2`, `-3`... when another account has it.
 */
export function authorSlug(name: string): string {
  const slug = foldText(name)
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return [...slug].slice(0, AUTHOR_SLUG_MAX_LENGTH).join('').replace(/-+$/, '') || 'author';
}

// Characters as a person counts them: an emoji is one, not two UTF-16 units.
const characterCount = (value: string) => [...value].length;

/** The bio as it is stored (trimmed), or the sentence that says what is wrong with it. */
export function checkBio(value: unknown): { bio: string } | { error: string } {
  if (typeof value !== 'string') return { error: 'Bio must be text.' };
  const bio = value.trim();
  if (bio.includes('\u0000') || !bio.isWellFormed())
    return { error: 'Bio contains a character that cannot be stored.' };
  if (characterCount(bio) > AUTHOR_BIO_MAX_LENGTH) {
    return { error: `Bio must be at most ${AUTHOR_BIO_MAX_LENGTH} characters.` };
  }
  return { bio };
}
