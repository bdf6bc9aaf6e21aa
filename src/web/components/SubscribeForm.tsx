import { siteInfo } from './siteInfo.ts';

/**
 * The newsletter's subscribe form (DESIGN.md §9.3): a plain form post to /subscribe, answered by
 * a page the server renders, so it works before (and without) the app's script. Shown only when
 * the site has a newsletter (NEWSLETTER=on). `place` keeps ids apart where two are on one screen.
 */
export function SubscribeForm({ place, className = '' }: { place: 'home' | 'article' | 'footer'; className?: string }) {
  const site = siteInfo();
  if (site.newsletter !== true) return null;
  const id = `subscribe-${place}`;
  return (
    <form method="post" action="/subscribe" aria-labelledby={`${id}-heading`} className={`font-sans ${className}`}>
      <p id={`${id}-heading`} className="text-sm font-semibold text-slate-800 dark:text-slate-200">
        Get new articles of <span dir="auto">{site.title}</span> by email
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-email`} className="sr-only">
          Email
        </label>
        <input
          id={`${id}-email`}
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        />
        <button type="submit" className="pill-primary">
          Subscribe
        </button>
      </div>
    </form>
  );
}
