import { foldText } from '../../../shared/tags.ts';

/**
 * A reader's search text, parsed here and never handed to FTS5 or tsquery syntax: words,
 * `"phrases"` and `-excluded` words or phrases. Each term is a list of folded words (lower
 * case, no diacritics); a term of several words is a phrase. A word with inner punctuation
 * (`e-mail`) is a phrase of its parts, as both databases' tokenizers see it.
 */
export interface SearchQuery {
  include: string[][];
  exclude: string[][];
}

/** More terms than this are dropped: 200 characters hold few real ones, and each costs a lookup. */
const MAX_TERMS = 16;

/** Letters, digits and combining marks of any script make words; anything else separates them. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export function wordsOf(text: string): string[] {
  return foldText(text).match(WORD) ?? [];
}

export function parseSearchQuery(text: string): SearchQuery {
  const query: SearchQuery = { include: [], exclude: [] };
  // A chunk: an optional leading '-', then a quoted phrase (closing quote optional) or a run without spaces.
  const chunk = /(-?)(?:"([^"]*)"?|([^\s"]+))/gu;
  for (const match of text.matchAll(chunk)) {
    const [, minus, phrase, word] = match;
    const words = wordsOf(phrase ?? word ?? '');
    if (words.length === 0) continue;
    const target = minus === '-' ? query.exclude : query.include;
    if (query.include.length + query.exclude.length >= MAX_TERMS) break;
    target.push(words);
  }
  return query;
}

/** The folded words a match of this query may be: what a snippet marks. */
export function includedWords(query: SearchQuery): string[] {
  return query.include.flat();
}
