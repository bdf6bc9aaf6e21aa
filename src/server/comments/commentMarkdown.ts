import MarkdownIt from 'markdown-it';
import { LINK_REL } from '../../shared/markdown/renderMarkdown.ts';

/**
 * Comment bodies (DESIGN.md §9.2): the article renderer's library (markdown-it, decision 0040)
 * with a narrower rule set. Paragraphs (a single newline a line break, as in articles),
 * emphasis, inline and block code, quotes, lists, and http(s) links with
 * rel="nofollow ugc noopener". Everything else (headings, images, rules, raw HTML, tables) is
 * not a rule here, so it stays the text it was written as. Rendered once when a comment is
 * written; the HTML is stored (as articles' are).
 */
function createCommentRenderer() {
  // 'zero' enables nothing; each rule below is one the comment may use.
  const markdown = new MarkdownIt('zero', { html: false, linkify: true, breaks: true });
  markdown.enable([
    // blocks
    'paragraph',
    'blockquote',
    'list',
    'code',
    'fence',
    // inline
    'text',
    'newline',
    'escape',
    'entity',
    'backticks',
    'emphasis',
    'link',
    'autolink',
    'linkify',
  ]);
  markdown.validateLink = (url) => {
    if (!URL.canParse(url)) return false;
    const { protocol, hostname } = new URL(url);
    return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
  };
  markdown.renderer.rules.link_open = (tokens, index, options, _env, self) => {
    tokens[index]!.attrSet('rel', LINK_REL);
    return self.renderToken(tokens, index, options);
  };
  return markdown;
}

const renderer = createCommentRenderer();

/** A comment's Markdown as safe HTML. */
export function renderCommentMarkdown(source: string): string {
  return renderer.render(source);
}
