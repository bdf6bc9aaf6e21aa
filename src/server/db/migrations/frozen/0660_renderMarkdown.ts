import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';

/**
 * FROZEN: the article renderer as it was when migration 0660 first ran (2026-12), copied from
 * src/shared/markdown/ and src/shared/imageUrls.ts so that changing the live renderer never
 * changes what this migration writes (decision 0220). Never edit it to follow the live
 * renderer; a change to how stored articles render is a new migration with a renderer frozen
 * beside it.
 */
/**
 * The URLs of uploaded images (docs/architecture.md, articles API), shared by the server that makes them and the web
 * app that builds `srcset` from them. An image's URL names its size,
 * `{origin}/images/{id}/{width}x{height}.jpg|png`, so a card knows the picture's shape and its
 * resized copies (`{origin}/images/{id}/{w}w`) from the URL alone (decision 0041).
 */

/** Long side of the stored image: larger uploads are scaled down to it. */
const IMAGE_MAX_SIDE = 2400;

/** Widths of the resized copies made of every upload narrower than it, besides its own width. */
const IMAGE_VARIANT_WIDTHS = [480, 960, 1600] as const;

interface UploadedImageUrl {
  /** `{origin}/images/{id}`: the variants' URLs start with it. */
  base: string;
  id: string;
  width: number;
  height: number;
}

const UPLOADED_PATH = /^\/images\/([A-Za-z0-9_-]{22})\/([1-9][0-9]{0,3})x([1-9][0-9]{0,3})\.(?:jpg|png)$/;

/** The last URL segment of the copy `width` pixels wide. */
function variantFileName(width: number): string {
  return `${width}w`;
}

/** The widths of an image's copies, narrowest first; the last is the image's own width. */
function variantWidths(width: number): number[] {
  return [...IMAGE_VARIANT_WIDTHS.filter((candidate) => candidate < width), width];
}

/** What an uploaded image's URL says about it, or null for any other URL (covers from other hosts). */
function parseUploadedImageUrl(url: string): UploadedImageUrl | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.search !== '' || parsed.hash !== '') return null;
  const match = UPLOADED_PATH.exec(parsed.pathname);
  if (!match) return null;
  const width = Number(match[2]);
  const height = Number(match[3]);
  if (width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE) return null;
  return { base: `${parsed.origin}/images/${match[1]}`, id: match[1]!, width, height };
}

/** `srcset` for an uploaded image: every copy with its real width (`w` descriptors). */
function uploadedImageSrcset(image: UploadedImageUrl): string {
  return variantWidths(image.width)
    .map((width) => `${image.base}/${variantFileName(width)} ${width}w`)
    .join(', ');
}

/** The excerpt (docs/architecture.md, articles API) is at most this many characters (as a person counts them). */
const EXCERPT_MAX_LENGTH = 300;

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
const EXCERPT_BLOCK_SEPARATOR = ' · ';
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
function readableTextOf(tokens: Token[]): string {
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
function excerptOf(tokens: Token[]): string {
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

/**
 * Article bodies as docs/product.md (Rules) describes them: CommonMark plus autolinks,
 * strikethrough and GFM tables, a picture alone in its paragraph with a title shown as a
 * figure with that caption, rendered by markdown-it (docs/decisions/0040, 0660). The server renders on every write and stores
 * the result; the editor's preview loads this same module lazily, so what a writer previews is
 * byte for byte what readers get.
 */

/** What an article's description renders to. */
interface RenderedMarkdown {
  /** Safe HTML: no raw HTML from the source, only http(s) links and images and paths of this site. */
  html: string;
  /** The rendered text without markup, at most EXCERPT_MAX_LENGTH characters. */
  excerpt: string;
  /** The whole rendered text without markup, blocks kept apart as in the excerpt (the search index holds it). */
  text: string;
}

const LINK_REL = 'nofollow ugc noopener';

/**
 * How wide a picture in an article's body is shown: the text column (60ch of the body's serif,
 * about 42rem) on wider screens, the screen's width on phones.
 */
const BODY_IMAGE_SIZES = '(min-width: 45rem) 42rem, 100vw';

interface RenderOptions {
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

  // The page's <h1> is the article's title: body headings start one level below it.
  markdown.core.ruler.push('shift_headings', (state) => {
    for (const token of state.tokens) {
      if (token.type === 'heading_open' || token.type === 'heading_close') {
        token.tag = `h${Math.min(Number(token.tag.slice(1)) + 1, 6)}`;
      }
    }
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
export function renderMarkdown0660(source: string, options: RenderOptions = {}): RenderedMarkdown {
  // markdown-it hands `env` to every rule: the image rule reads the origin from it.
  const env: Record<PropertyKey, unknown> = { ownImageOrigin: options.ownImageOrigin };
  const tokens = renderer.parse(source, env);
  const text = readableTextOf(tokens);
  return { html: renderer.renderer.render(tokens, renderer.options, env), excerpt: excerptOf(tokens), text };
}
