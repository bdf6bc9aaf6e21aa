import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';

/**
 * FROZEN: how an article's excerpt was made when migration 0500 first ran (2026-11), copied
 * from src/shared/markdown/ (the parser's settings and markdownExcerpt.ts) so that changing the
 * live renderer never changes what this migration writes (decision 0220). Never edit it to
 * follow the live code. Only parsing matters for the excerpt: the HTML rules are left out.
 */

const EXCERPT_MAX_LENGTH = 300;
const EXCERPT_BLOCK_SEPARATOR = ' · ';
const ENDS_A_SENTENCE = /[.!?…:;]["'”’)\]]*$/u;

function isWebUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
}

function createParser() {
  const markdown = new MarkdownIt('commonmark', { html: false, linkify: true, breaks: true, xhtmlOut: false });
  markdown.enable(['linkify', 'strikethrough']);
  markdown.validateLink = isWebUrl;
  return markdown;
}

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
        if (token.block) out.push(' ');
    }
  }
}

function plainTextOf(tokens: Token[]): string {
  const out: string[] = [];
  visibleText(tokens, out);
  return out
    .join('')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}

function excerptOf(tokens: Token[]): string {
  const blocks = tokens
    .filter((token) => token.type === 'inline' || token.type === 'code_block' || token.type === 'fence')
    .map((token) => plainTextOf([token]))
    .filter((text) => text !== '');
  const flat = blocks.reduce(
    (joined, block) =>
      joined === '' ? block : `${joined}${ENDS_A_SENTENCE.test(joined) ? ' ' : EXCERPT_BLOCK_SEPARATOR}${block}`,
    '',
  );
  const chars = [...flat];
  if (chars.length <= EXCERPT_MAX_LENGTH) return flat;
  const cut = chars.slice(0, EXCERPT_MAX_LENGTH - 1).join('');
  const lastSpace = cut.lastIndexOf(' ');
  const shortened = lastSpace > EXCERPT_MAX_LENGTH / 2 ? cut.slice(0, lastSpace) : cut;
  return `${shortened.replace(/[\s.,;:!?·-]+$/u, '')}…`;
}

const parser = createParser();

/** An article description's excerpt as migration 0500 makes it: blocks kept apart. */
export function excerpt0500(source: string): string {
  return excerptOf(parser.parse(source, {}));
}
