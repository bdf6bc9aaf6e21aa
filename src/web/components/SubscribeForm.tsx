import { siteInfo } from './siteInfo.ts';

/**
 * The newsletter's subscribe form (DESIGN.md §9.3): a plain form post to /subscribe, answered by
 * a page the server renders, so it works before (and without) the app's script. Shown only when
 * the site has a newsletter (NEWSLETTER=on). Kept small: the home page's code carries it.
 */
export function SubscribeForm({ place, className }: { place: string; className: string }) {
  if (!siteInfo().newsletter) return null;
  return (
    <form method="post" action="/subscribe" className={`subscribe-form ${className}`}>
      <label htmlFor={place}>Get new articles by email</label>
      <div>
        <input id={place} name="email" type="email" required autoComplete="email" />
        <button className="pill-primary">Subscribe</button>
      </div>
    </form>
  );
}
