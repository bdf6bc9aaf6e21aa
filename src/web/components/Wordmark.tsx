import { Link } from 'react-router';
import { paths } from '../../shared/routes.ts';
import { siteInfo } from './siteInfo.ts';

/** An ink drop: the blog's mark, whatever its name. Decorative: the name beside it is the link's text. */
export function InkMark({ className = '' }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className}>
      <path fill="currentColor" d="M12 2.5c3.6 4.6 6.5 8.4 6.5 12a6.5 6.5 0 0 1-13 0c0-3.6 2.9-7.4 6.5-12Z" />
      <path fill="var(--color-paper)" opacity=".55" d="M9.2 14.2a3 3 0 0 0 2.3 3.4l-.3 1.3a4.3 4.3 0 0 1-3.3-4.9Z" />
    </svg>
  );
}

/** The site's name beside the spec's Home link: the blog says who it is on every screen. */
export function Wordmark() {
  return (
    <Link
      to={paths.home}
      className="flex min-w-0 items-center gap-1.5 font-serif text-lg font-bold tracking-tight text-slate-900 dark:text-slate-50"
    >
      <InkMark className="h-5 w-5 shrink-0 text-blue-700 dark:text-blue-400" />
      <span dir="auto" className="truncate" data-site-title="">
        {siteInfo().title}
      </span>
    </Link>
  );
}
