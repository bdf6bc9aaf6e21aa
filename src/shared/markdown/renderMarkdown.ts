import MarkdownIt from 'markdown-it';
import { parseUploadedImageUrl, uploadedImageSrcset } from '../imageUrls.ts';
import { excerptOf, readableTextOf } from './markdownExcerpt.ts';

/**
 * Article bodies as docs/product.md (Rules) describes them: CommonMark plus autolinks,
 * strikethrough and GFM tables, a picture alone in its paragraph with a title shown as a
 * figure with that caption, rendered by markdown-it (docs/decisions/0040, 0660). The server renders on every write and stores
 * the result; the editor's preview loads this same module lazily, so what a writer previews is
 * byte for byte what readers get.
 */

/** What an article's description renders to. */
export interface RenderedMarkdown {
  /** Safe HTML: no raw HTML from the source, only http(s) links and images and paths of this site. */
  html: string;
  /** The rendered text without markup, at most EXCERPT_MAX_LENGTH characters. */
  excerpt: string;
  /** The whole rendered text without markup, blocks kept apart as in the excerpt (the search index holds it). */
  text: string;
}

export const LINK_REL = 'nofollow ugc noopener';

/**
 * How wide a picture in an article's body is shown: the text column (60ch of the body's serif,
 * about 42rem) on wider screens, the screen's width on phones.
 */
export const BODY_IMAGE_SIZES = '(min-width: 45rem) 42rem, 100vw';

export interface RenderOptions {
  /**
   * The origin of this server's uploads (PUBLIC_URL): their pictures get the resized copies'
   * `srcset` and their width and height, as covers do (issue 26). Pictures from anywhere else
   * are left as written.
   */
  ownImageOrigin?: string | undefined;
}

// A stand-in origin to resolve a relative URL against: what it resolves to must stay on it.
const THIS_SITE = 'https://this-site.invalid';

/**
 * A path of this site (`/feed.xml`, `/tag/bread`, `#part-2`): kept as written, so a writer can
 * link to their own pages (decision 0660). Protocol-relative (`//host`), backslashed (`/\host`,
 * which browsers read as `//host`) and path-relative (`../x`, whose meaning depends on the page
 * it is read on) are not.
 */
function isSitePath(url: string): boolean {
  if (!(url.startsWith('/') || url.startsWith('#')) || url.startsWith('//') || url.includes('\\')) return false;
  return URL.canParse(url, THIS_SITE) && new URL(url, THIS_SITE).origin === THIS_SITE;
}

function isWebUrl(url: string): boolean {
  if (isSitePath(url)) return true;
  // Other relative URLs fail to parse without a base: only absolute http(s) survive.
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
}

function createRenderer() {
  // 'commonmark' is the strict spec preset; html: false makes tags in the source plain text.
  // breaks: true keeps a single newline a line break, as it was in the plain-text articles
  // written before Markdown and as people expect from a text box (decision 0040).
  const markdown = new MarkdownIt('commonmark', { html: false, linkify: true, breaks: true, xhtmlOut: false });
  markdown.enable(['linkify', 'strikethrough', 'table']);
  // Replaces markdown-it's own blocklist (javascript:, vbscript:, file:, most data:) with an
  // allowlist: a link or image whose URL fails this is left as the text it was written as.
  markdown.validateLink = isWebUrl;

  // The page's <h1> is the article's title: the body's highest heading is an <h2>, whichever
  // level it was written at, and the others keep their steps below it (to <h6> at most). `#`
  // sections and `##` sections (Ghost's and WordPress's <h2>, imported) both outline as h2
  // under the title, never an h1 to h3 jump (decision 0893).
  markdown.core.ruler.push('shift_headings', (state) => {
    const headings = state.tokens.filter((token) => token.type === 'heading_open' || token.type === 'heading_close');
    const highest = Math.min(...headings.map((token) => Number(token.tag.slice(1))));
    for (const token of headings) token.tag = `h${Math.min(Number(token.tag.slice(1)) - highest + 2, 6)}`;
  });

  // GFM writes a column's alignment as a style attribute, which the pages' Content-Security-Policy
  // (style-src 'self') refuses, logging an error: a class of styles.css says it instead.
  markdown.core.ruler.push('table_alignment_classes', (state) => {
    for (const token of state.tokens) {
      if (token.type !== 'th_open' && token.type !== 'td_open') continue;
      const align = /^text-align:(left|center|right)$/.exec(String(token.attrGet('style') ?? ''))?.[1];
      token.attrs = null;
      if (align) token.attrSet('class', `align-${align}`);
    }
  });

  // `![Boats](url "Dawn, from the pier")` alone in its paragraph is a figure: the title is its
  // caption, shown under it, rather than a tooltip nobody on a phone can see.
  markdown.core.ruler.push('figure_captions', (state) => {
    const tokens = state.tokens;
    for (let index = 0; index + 2 < tokens.length; index += 1) {
      const [open, inline, close] = [tokens[index]!, tokens[index + 1]!, tokens[index + 2]!];
      if (open.type !== 'paragraph_open' || inline.type !== 'inline' || close.type !== 'paragraph_close') continue;
      const images = (inline.children ?? []).filter((child) => !(child.type === 'text' && child.content.trim() === ''));
      const image = images.length === 1 && images[0]!.type === 'image' ? images[0]! : undefined;
      const caption = String(image?.attrGet('title') ?? '').trim();
      if (!image || !caption) continue;
      image.attrs = (image.attrs ?? []).filter(([name]) => name !== 'title');
      image.meta = { caption };
      open.tag = 'figure';
      close.tag = 'figure';
    }
  });

  const rules = markdown.renderer.rules;
  // Links people write in articles are theirs, not the site's endorsement; noopener in case a
  // reader opens one in a new tab.
  rules.link_open = (tokens, index, options, _env, self) => {
    const token = tokens[index]!;
    // A path of this site is the site's own link, not someone else's.
    if (!isSitePath(String(token.attrGet('href') ?? ''))) token.attrSet('rel', LINK_REL);
    return self.renderToken(tokens, index, options);
  };

  const renderImage = rules.image!;
  rules.image = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    token.attrSet('loading', 'lazy');
    token.attrSet('decoding', 'async');
    // As for covers: a reader's visit is not announced to the host of a hot-linked picture.
    token.attrSet('referrerpolicy', 'no-referrer');
    const own = (env as RenderOptions).ownImageOrigin;
    const uploaded = own ? parseUploadedImageUrl(String(token.attrGet('src') ?? '')) : null;
    if (uploaded && uploaded.base.startsWith(`${own}/images/`)) {
      token.attrSet('srcset', uploadedImageSrcset(uploaded));
      token.attrSet('sizes', BODY_IMAGE_SIZES);
      // Its box has the picture's shape before it loads: no layout shift (CSS keeps it fluid).
      token.attrSet('width', String(uploaded.width));
      token.attrSet('height', String(uploaded.height));
    }
    const caption = (token.meta as { caption?: string } | null)?.caption;
    const img = renderImage(tokens, index, options, env, self);
    return caption === undefined ? img : `${img}<figcaption>${markdown.utils.escapeHtml(caption)}</figcaption>`;
  };
  return markdown;
}

const renderer = createRenderer();

/** Renders an article's Markdown description to safe HTML and its plain-text excerpt. */
export function renderMarkdown(source: string, options: RenderOptions = {}): RenderedMarkdown {
  // markdown-it hands `env` to every rule: the image rule reads the origin from it.
  const env: Record<PropertyKey, unknown> = { ownImageOrigin: options.ownImageOrigin };
  const tokens = renderer.parse(source, env);
  const text = readableTextOf(tokens);
  return { html: renderer.renderer.render(tokens, renderer.options, env), excerpt: excerptOf(tokens), text };
}
