/**
 * Tags (DESIGN.md §8.5): what a person may write and the slug that names a tag in URLs.
 * Tags with the same slug are one tag, shown with the spelling first used.
 */

export const TAGS_MAX = 5;
export const TAG_NAME_MAX_LENGTH = 30;
/** A slug is made from at most TAG_NAME_MAX_LENGTH characters, each of which may fold to a few. */
export const TAG_SLUG_MAX_LENGTH = 120;

/**
 * The combining diacritical marks (accents, cedillas, umlauts...) of the main block, which
 * covers every Latin, Greek and Cyrillic letter's. Other marks stay: in many scripts
 * (Devanagari, Thai...) they are vowels, part of the word. This runs in every page (tag links),
 * so it stays this short; the search indexes fold more (migration 0280, FTS5's remove_diacritics).
 */
const DIACRITICS = /[\u0300-\u036f]+/g;

/** Lower case with diacritics removed: `Café` and `cafe` are the same word. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(DIACRITICS, '').normalize('NFC').toLowerCase();
}

/**
 * The slug of a tag name: lower case, diacritics removed, letters and digits of any script
 * (with their vowel signs) kept, every run of anything else one `-`, no `-` at either end. Empty when nothing is left.
 */
export function tagSlug(name: string): string {
  return foldText(name)
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** True when `text` is a slug as tagSlug makes them (so a `?tag=` value needs no folding). */
export function isTagSlug(text: string): boolean {
  return text.length > 0 && text.length <= TAG_SLUG_MAX_LENGTH && tagSlug(text) === text;
}
