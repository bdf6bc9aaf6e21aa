import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';

/**
 * FROZEN: the article renderer as it was when migration 0006 first ran (2026-11), copied from
 * src/shared/markdown/ so that changing the live renderer never changes what this old
 * migration writes (decision 0220). Never edit it to follow the live renderer; a change to how
 * stored articles render is a new migration with a renderer frozen beside it.
 */

const EXCERPT_MAX_LENGTH = 300;
const LINK_REL = 'nofollow ugc noopener';

function isWebUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
}

function createRenderer() {
  const markdown = new MarkdownIt('commonmark', { html: false, linkify: true, breaks: true, xhtmlOut: false });
  markdown.enable(['linkify', 'strikethrough']);
  markdown.validateLink = isWebUrl;
  markdown.core.ruler.push('shift_headings', (state) => {
    for (const token of state.tokens) {
      if (token.type === 'heading_open' || token.type === 'heading_close') {
        token.tag = `h${Math.min(Number(token.tag.slice(1)) + 1, 6)}`;
      }
    }
  });
  const rules = markdown.renderer.rules;
  rules.link_open = (tokens, index, options, _env, self) => {
    tokens[index]!.attrSet('rel', LINK_REL);
    return self.renderToken(tokens, index, options);
  };
  const renderImage = rules.image!;
  rules.image = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    token.attrSet('loading', 'lazy');
    token.attrSet('decoding', 'async');
    token.attrSet('referrerpolicy', 'no-referrer');
    return renderImage(tokens, index, options, env, self);
  };
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

function excerptOf(tokens: Token[]): string {
  const out: string[] = [];
  visibleText(tokens, out);
  const flat = out
    .join('')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
  const chars = [...flat];
  if (chars.length <= EXCERPT_MAX_LENGTH) return flat;
  const cut = chars.slice(0, EXCERPT_MAX_LENGTH - 1).join('');
  const lastSpace = cut.lastIndexOf(' ');
  const shortened = lastSpace > EXCERPT_MAX_LENGTH / 2 ? cut.slice(0, lastSpace) : cut;
  return `${shortened.replace(/[\s.,;:!?-]+$/u, '')}…`;
}

const renderer = createRenderer();

/** An article description as migration 0006 renders it: HTML and plain-text excerpt. */
export function renderMarkdown0006(source: string): { html: string; excerpt: string } {
  const env = {};
  const tokens = renderer.parse(source, env);
  return { html: renderer.renderer.render(tokens, renderer.options, env), excerpt: excerptOf(tokens) };
}
