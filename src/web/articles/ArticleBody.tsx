/**
 * Typography for a rendered article body (the elements src/shared/markdown produces). Code
 * blocks scroll sideways inside the column instead of widening the page on a phone; images
 * and long words never overflow it.
 */
const bodyClass = [
  'text-lg leading-relaxed [overflow-wrap:anywhere]',
  '[&>*+*]:mt-5',
  '[&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-semibold',
  '[&_h4]:mt-6 [&_h4]:font-semibold [&_h5]:mt-6 [&_h5]:font-semibold [&_h6]:mt-6 [&_h6]:font-semibold',
  '[&_a]:text-blue-700 [&_a]:underline [&_a:hover]:no-underline dark:[&_a]:text-blue-400',
  '[&_ul]:list-disc [&_ol]:list-decimal [&_ul]:pl-6 [&_ol]:pl-6 [&_li+li]:mt-1',
  '[&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-4 [&_blockquote]:text-slate-700',
  'dark:[&_blockquote]:border-slate-700 dark:[&_blockquote]:text-slate-300',
  '[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-[0.9em] dark:[&_code]:bg-slate-800',
  '[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-100 [&_pre]:p-4 [&_pre]:text-base [&_pre]:leading-normal dark:[&_pre]:bg-slate-800',
  '[&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_pre]:[overflow-wrap:normal]',
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

/** An article's formatted body, on the article page and in the editor's preview. */
export function ArticleBody({ html, className = '' }: ArticleBodyProps) {
  return <div dir="auto" className={`${bodyClass} ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
