import TurndownService from 'turndown';
// @ts-expect-error -- turndown-plugin-gfm ships no types; it exports plugin functions
import { gfm } from 'turndown-plugin-gfm';

/** What the rules read of a DOM node (the server is compiled without the DOM library's types). */
interface Element {
  nodeName: string;
  getAttribute(name: string): string | null;
}
const element = (node: unknown) => node as Element;

export interface Converted {
  markdown: string;
  /** Every image source the text shows, as written in the HTML. */
  images: string[];
}

/**
 * HTML of another blog's post as Markdown, by turndown (with GitHub's tables and strikethrough):
 * links are passed through `rewriteLink` (an old post's address becomes the article it is now),
 * image sources are collected so the caller can store them and put their new URLs in.
 * Scripts, styles and embedded frames are dropped: Inkwell's renderer would not show them.
 */
export function htmlToMarkdown(html: string, rewriteLink: (href: string) => string): Converted {
  current = { images: [], rewriteLink };
  try {
    return { markdown: service.turndown(html).trim(), images: current.images };
  } finally {
    current = null;
  }
}

// One converter for every post (its rules are built once); the post being converted is `current`.
let current: { images: string[]; rewriteLink: (href: string) => string } | null = null;
const service = makeService();

function makeService(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  service.use(gfm as TurndownService.Plugin);
  service.remove(['script', 'style', 'iframe', 'noscript', 'form']);
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const src = element(node).getAttribute('src')?.trim();
      if (!src) return '';
      current!.images.push(src);
      const alt = (element(node).getAttribute('alt') ?? '').replace(/[[\]\\]/g, '\\$&').replace(/\s+/g, ' ');
      return `![${alt}](${markdownUrl(src)})`;
    },
  });
  service.addRule('link', {
    filter: (node) => element(node).nodeName === 'A' && Boolean(element(node).getAttribute('href')),
    replacement: (content, node) => {
      const href = current!.rewriteLink(element(node).getAttribute('href')!.trim());
      return content.trim() === '' ? '' : `[${content}](${markdownUrl(href)})`;
    },
  });
  return service;
}

/** A URL as a Markdown link destination: spaces and parentheses escaped so it stays one destination. */
export function markdownUrl(url: string): string {
  return url.replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
}
