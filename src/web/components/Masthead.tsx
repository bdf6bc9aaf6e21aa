import { siteInfo } from './siteInfo.ts';

/** The home page's opening: the blog's name as the page's heading and its one line beneath (docs/product.md, Screens; its looks: `.masthead` in styles.css). */
export function Masthead() {
  const { title, description } = siteInfo();
  return (
    <header className="masthead">
      <h1 dir="auto" className="display-title">
        {title}
      </h1>
      <p dir="auto">{description}</p>
    </header>
  );
}
