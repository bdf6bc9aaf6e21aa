import { paths } from '../../shared/routes.ts';

/**
 * The top bar's search box: a plain GET form to `/search?q=`, whose code loads only then. No
 * script of its own: it is on every page, and the home page's JavaScript budget had no room
 * for one (docs/decisions/0281). The search screen explains empty and over-long text.
 */
export function SearchControl() {
  return (
    <form role="search" action={paths.search} className="search-form">
      <input type="search" name="q" required aria-label="Search articles" placeholder="Search" className="search-box" />
    </form>
  );
}
