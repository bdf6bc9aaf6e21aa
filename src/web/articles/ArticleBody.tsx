/**
 * Typography for a rendered article body (the elements src/shared/markdown produces). Code
 * blocks scroll sideways inside the column instead of widening the page on a phone; images
 * and long words never overflow it.
 */
const bodyClass = [
  // 18 px on a phone, 19 px wider; 1.7 line height. The column (ARTICLE_COLUMN) is measured in
  // this type's own `ch`, so a line holds 60–75 characters whichever serif the system supplies.
  'font-serif text-[1.125rem] leading-[1.7] sm:text-[1.1875rem] [overflow-wrap:anywhere]',
  '[&>*+*]:mt-[1.1em]',
  // A scale in the body's own em: every level reads above the body text (issue 26). The
  // title is the page's h1, so a writer's `#` is an h2, `##` an h3 and so on (renderMarkdown.ts).
  '[&_h2]:mt-12 [&_h2]:font-sans [&_h2]:text-[1.6em] [&_h2]:leading-tight [&_h2]:font-bold',
  '[&_h3]:mt-10 [&_h3]:font-sans [&_h3]:text-[1.4em] [&_h3]:leading-snug [&_h3]:font-bold',
  '[&_h4]:mt-8 [&_h4]:font-sans [&_h4]:text-[1.25em] [&_h4]:leading-snug [&_h4]:font-semibold',
  '[&_h5]:mt-6 [&_h5]:font-sans [&_h5]:text-[1.12em] [&_h5]:font-semibold [&_h6]:mt-6 [&_h6]:font-sans [&_h6]:text-[1.05em] [&_h6]:font-semibold',
  '[&_a]:text-blue-700 [&_a]:underline [&_a:hover]:no-underline dark:[&_a]:text-blue-400',
  '[&_ul]:list-disc [&_ol]:list-decimal [&_ul]:ps-6 [&_ol]:ps-6 [&_li+li]:mt-1',
  '[&_blockquote]:border-s-4 [&_blockquote]:border-blue-700/40 [&_blockquote]:ps-5 [&_blockquote]:italic [&_blockquote]:text-slate-700',
  'dark:[&_blockquote]:border-slate-700 dark:[&_blockquote]:text-slate-300',
  // Monospace reads large: 0.88em of the body is 16-17 px, and a code block's text is its own (not 0.88 of 0.88).
  '[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.88em] dark:[&_code]:bg-slate-800',
  '[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-100 [&_pre]:p-4 [&_pre]:font-mono [&_pre]:text-[0.88em] [&_pre]:leading-normal dark:[&_pre]:bg-slate-800',
  '[&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_pre_code]:text-[1em] [&_pre]:[overflow-wrap:normal]',
  '[&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-md',
  '[&_hr]:border-slate-300 dark:[&_hr]:border-slate-700',
].join(' ');

interface ArticleBodyProps {
  /**
   * HTML rendered from the article's Markdown by src/shared/markdown: raw HTML in the source is
   * escaped there and only http(s) URLs survive, so it is inserted as it is.
   */
  html: string;
  className?: string;
}

/**
 * The reading column, in the body's own `ch` (the width of its "0"; prose averages narrower, so
 * 60ch holds about 65–70 characters of text). It carries the body's type, so the title block
 * above the body, which ArticlePage also puts in it, lines up with the body exactly.
 */
export const ARTICLE_COLUMN = 'mx-auto w-full max-w-[60ch] font-serif text-[1.125rem] sm:text-[1.1875rem]';

/** An article's formatted body, on the article page and in the editor's preview. */
export function ArticleBody({ html, className = '' }: ArticleBodyProps) {
  return <div dir="auto" className={`${bodyClass} ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
