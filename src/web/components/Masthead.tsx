import { siteInfo } from './siteInfo.ts';

/** The home page's opening: the blog's name as the page's heading and its one line beneath (docs/product.md, Screens). */
export function Masthead() {
  const { title, description } = siteInfo();
  return (
    <header className="mb-10 border-b border-slate-200 pb-8 sm:mb-14 sm:pb-12 dark:border-slate-800">
      <h1 dir="auto" className="display-title text-[2.5rem] sm:text-[3.5rem]">
        {title}
      </h1>
      <p dir="auto" className="mt-3 max-w-[40ch] text-lg text-slate-600 sm:mt-4 sm:text-xl dark:text-slate-400">
        {description}
      </p>
    </header>
  );
}
