import type { Token } from 'markdown-it';

/** The excerpt (docs/architecture.md, articles API) is at most this many characters (as a person counts them). */
export const EXCERPT_MAX_LENGTH = 300;

/** The text a reader sees in these tokens: words of inline content, code, no markup, no image URLs. */
function visibleText(tokens: Token[], out: string[]): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'code_inline':
        out.push(token.content);
        break;
      case 'softbreak':
      case 'hardbreak':
        out.push(' ');
        break;
      case 'code_block':
      case 'fence':
        out.push(' ', token.content, ' ');
        break;
      case 'inline':
        visibleText(token.children ?? [], out);
        break;
      default:
        // Block boundaries separate words; an image's alt text is not shown, so not read either.
        if (token.block) out.push(' ');
    }
  }
}

/** Whitespace runs made one space; control characters are no text a person reads. */
function collapsed(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}

/** The rendered text of these tokens without markup, whitespace collapsed. */
function plainTextOf(tokens: Token[]): string {
  const out: string[] = [];
  visibleText(tokens, out);
  return collapsed(out.join(''));
}

/**
 * Between two blocks of an excerpt (heading, paragraph, list item, code): a middle dot, so a
 * card reads "Ingredients · 4 small dab · 60 g butter" rather than running them together. After
 * a block that already ends a sentence, a plain space reads better ("It rained. Then…").
 */
export const EXCERPT_BLOCK_SEPARATOR = ' · ';
const ENDS_A_SENTENCE = /[.!?…:;]["'”’)\]]*$/u;

/** The text of each leaf block (inline content, code) in document order, whitespace collapsed, empty ones left out. */
function blockTexts(tokens: Token[]): string[] {
  const blocks: string[] = [];
  for (const token of tokens) {
    if (token.type !== 'inline' && token.type !== 'code_block' && token.type !== 'fence') continue;
    const text = plainTextOf([token]);
    if (text !== '') blocks.push(text);
  }
  return blocks;
}

/**
 * The whole rendered text of a parsed article without markup, blocks kept apart by
 * EXCERPT_BLOCK_SEPARATOR: what search indexes and cuts its snippets from, so a snippet reads
 * "What you need · A coarse stone" as a card does, never "What you need A coarse stone".
 */
export function readableTextOf(tokens: Token[]): string {
  return blockTexts(tokens).reduce(
    (joined, block) =>
      joined === '' ? block : `${joined}${ENDS_A_SENTENCE.test(joined) ? ' ' : EXCERPT_BLOCK_SEPARATOR}${block}`,
    '',
  );
}

/**
 * readableTextOf, cut at a word boundary with an ellipsis when longer than EXCERPT_MAX_LENGTH
 * characters.
 */
export function excerptOf(tokens: Token[]): string {
  const flat = readableTextOf(tokens);
  const chars = [...flat];
  if (chars.length <= EXCERPT_MAX_LENGTH) return flat;
  const cut = chars.slice(0, EXCERPT_MAX_LENGTH - 1).join('');
  const lastSpace = cut.lastIndexOf(' ');
  // Keep a word boundary unless that would throw away most of the text (one very long word).
  const shortened = lastSpace > EXCERPT_MAX_LENGTH / 2 ? cut.slice(0, lastSpace) : cut;
  // A separator left at the cut would read as a dangling bullet before the ellipsis.
  return `${shortened.replace(/[\s.,;:!?·-]+$/u, '')}…`;
}
