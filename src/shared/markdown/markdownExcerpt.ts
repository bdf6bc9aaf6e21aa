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

/** The whole rendered text of a parsed article without markup, whitespace collapsed: what search reads. */
export function plainTextOf(tokens: Token[]): string {
  const out: string[] = [];
  visibleText(tokens, out);
  // Control characters are no text a person reads.
  return out
    .join('')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}

/**
 * The rendered text of a parsed article without markup, whitespace collapsed, cut at a word
 * boundary with an ellipsis when longer than EXCERPT_MAX_LENGTH characters.
 */
export function excerptOf(tokens: Token[]): string {
  const flat = plainTextOf(tokens);
  const chars = [...flat];
  if (chars.length <= EXCERPT_MAX_LENGTH) return flat;
  const cut = chars.slice(0, EXCERPT_MAX_LENGTH - 1).join('');
  const lastSpace = cut.lastIndexOf(' ');
  // Keep a word boundary unless that would throw away most of the text (one very long word).
  const shortened = lastSpace > EXCERPT_MAX_LENGTH / 2 ? cut.slice(0, lastSpace) : cut;
  return `${shortened.replace(/[\s.,;:!?-]+$/u, '')}…`;
}
