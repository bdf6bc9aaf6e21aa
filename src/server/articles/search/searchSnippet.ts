import { stemmer } from 'stemmer';
import { foldText } from '../../../shared/tags.ts';

/** Code points of article text a snippet shows at most (ellipses not counted). */
export const SNIPPET_MAX_LENGTH = 200;
/** How much text before the first match a snippet keeps, so the match is read in context. */
const LEAD = 60;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The form a word is compared in: folded and stemmed (English), as the indexes compare them. */
export const matchKey = (word: string) => stemmer(foldText(word));

/**
 * At most SNIPPET_MAX_LENGTH code points of `text` around the first word matching one of
 * `queryWords` (the opening when none does), every matching word in `<mark>`, everything else
 * HTML-escaped, `…` where text was cut off.
 */
export function searchSnippet(text: string, queryWords: readonly string[]): string {
  const keys = new Set(queryWords.map(matchKey));
  const chars = [...text];
  // Words by code point offsets.
  const words: { start: number; end: number; hit: boolean }[] = [];
  let offset = 0;
  let lastIndex = 0;
  for (const match of text.matchAll(WORD)) {
    offset += [...text.slice(lastIndex, match.index)].length;
    const length = [...match[0]].length;
    words.push({ start: offset, end: offset + length, hit: keys.has(matchKey(match[0])) });
    offset += length;
    lastIndex = match.index + match[0].length;
  }
  const first = words.find((word) => word.hit);
  let start = 0;
  if (first && first.end > SNIPPET_MAX_LENGTH) {
    // Start LEAD code points before the match, at a word's start when one is near.
    const from = Math.max(0, first.start - LEAD);
    start = words.find((word) => word.start >= from && word.start <= first.start)?.start ?? first.start;
  }
  let end = Math.min(chars.length, start + SNIPPET_MAX_LENGTH);
  if (end < chars.length) {
    // Do not cut a word in half unless it is the only one.
    const cut = words.find((word) => word.start < end && word.end > end);
    if (cut && cut.start > start) end = cut.start;
  }
  let html = start > 0 ? '…' : '';
  let at = start;
  for (const word of words) {
    if (!word.hit || word.start < start || word.end > end) continue;
    html += escapeHtml(chars.slice(at, word.start).join(''));
    html += `<mark>${escapeHtml(chars.slice(word.start, word.end).join(''))}</mark>`;
    at = word.end;
  }
  html += escapeHtml(chars.slice(at, end).join('').trimEnd());
  if (end < chars.length) html += '…';
  return html;
}
