import { readSiteIdentity, SITE_IDENTITY_ELEMENT_ID, type SiteIdentity } from '../../shared/siteIdentity.ts';

let cached: SiteIdentity | undefined;

/**
 * The blog's name and one-line description (SITE_TITLE and SITE_DESCRIPTION), from the data
 * block the server writes into the HTML shell: the masthead, wordmark and tab title need no call
 * of their own. Read once; the fallback stands in where no shell is (the Vite dev server, Node).
 */
export function siteInfo(): SiteIdentity {
  cached ??= readSiteIdentity(
    typeof document === 'undefined' ? null : document.getElementById(SITE_IDENTITY_ELEMENT_ID)?.textContent,
  );
  return cached;
}

/** The identity the server renders with (renderScreen.tsx): it has no document to read it from. */
export function setSiteInfoOnServer(site: SiteIdentity): void {
  cached = site;
}

/** A tab title: the screen's name, then the site's, as the server writes it (docs/product.md, Screens). */
export function pageTitle(pageName: string | null): string {
  const site = siteInfo().title;
  return pageName ? `${pageName} – ${site}` : site;
}
