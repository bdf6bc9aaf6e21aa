/** Text made safe for the three places publishing writes it: HTML, XML and JSON inside <script>. */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** For HTML text and double- or single-quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

// The five entities every XML parser knows without a DTD.
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

// XML 1.0 allows tab, newline, carriage return and U+0020 upwards, minus lone surrogates and
// U+FFFE/U+FFFF. Anything else makes the whole document unreadable to a strict parser.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** For XML text and attribute values: characters XML 1.0 cannot carry are dropped, the rest escaped. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);
}

/**
 * JSON for a <script type="application/ld+json"> block: `<` as \u003c so no text can close the
 * script element or open a comment, and the two line separators JavaScript once choked on.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * A one-paragraph summary for meta descriptions: whitespace collapsed, cut at a word boundary
 * near `maxLength` characters (counted as a person counts them), with an ellipsis when cut.
 */
export function summarise(text: string, maxLength = 160): string {
  // Control characters are not text a person reads (and HTML calls them a parse error).
  const flat = text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  const chars = [...flat];
  if (chars.length <= maxLength) return flat;
  const cut = chars.slice(0, maxLength - 1).join('');
  const lastSpace = cut.lastIndexOf(' ');
  // Keep a word boundary unless it would throw away most of the text (one very long word).
  const shortened = lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut;
  return `${shortened.replace(/[\s.,;:!?-]+$/, '')}…`;
}

/**
 * An article's HTML for a reader with no base URL (a feed reader, a mail client): `href` and
 * `src` that start with one slash get the site's origin, and `#fragment` links the article's
 * own address. The HTML is the server's own rendering (src/shared/markdown), whose attributes
 * are always double-quoted.
 */
export function absoluteUrls(html: string, publicUrl: string, pageUrl: string): string {
  return html
    .replace(/\b(href|src)="\/(?!\/)/g, (_, attribute: string) => `${attribute}="${escapeHtml(publicUrl)}/`)
    .replace(/\bhref="#/g, () => `href="${escapeHtml(pageUrl)}#`);
}
