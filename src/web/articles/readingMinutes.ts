// Silent reading of prose on a screen runs at about 200–250 words a minute; the middle is used.
const WORDS_PER_MINUTE = 225;

/** Minutes to read a rendered body (at least one), counted from its text without the markup. */
export function readingMinutes(html: string): number {
  const text = html.replace(/<[^>]*>/g, ' ');
  const words = text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}
