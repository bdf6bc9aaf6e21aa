const BLOCK = /^<(?:p|div|h[1-6]|ul|ol|li|table|thead|tbody|tr|blockquote|pre|figure|hr|img|!--)/i;

/**
 * WordPress stores a classic-editor post with its paragraphs as blank lines and adds the <p>
 * tags only when it shows the post (its wpautop filter); block-editor posts have them already.
 * This adds them for text between blank lines that does not start with a block element, and
 * a <br> for a single line break inside such a paragraph, enough for HTML to Markdown to see
 * the paragraphs (not WordPress's whole filter).
 */
export function wpautop(content: string): string {
  return content
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== '')
    .map((chunk) => (BLOCK.test(chunk) ? chunk : `<p>${chunk.replace(/\n/g, '<br>\n')}</p>`))
    .join('\n');
}
