import { InkMark } from './Wordmark.tsx';
import { siteInfo } from './siteInfo.ts';

/**
 * The site's name again and its feed, at the foot of every screen. Both on the left: the corner on
 * the right is where the floating Add an article button rests (on a phone, one under the other:
 * side by side, the link would reach under the button).
 */
export function Footer() {
  return (
    <footer className="border-t border-slate-200 dark:border-slate-800">
      <div className="footer-row">
        <p className="flex items-center gap-1.5 font-serif text-base font-bold text-slate-800 dark:text-slate-200">
          <InkMark className="h-4 w-4 text-blue-700 dark:text-blue-400" />
          <span dir="auto" data-site-title="">
            {siteInfo().title}
          </span>
        </p>
        {/* A plain link: the feed is a file the server makes, not a screen of the app. */}
        <a href="/feed.xml" className="underline-offset-4 hover:text-slate-900 hover:underline dark:hover:text-white">
          Subscribe to the feed
        </a>
      </div>
    </footer>
  );
}
