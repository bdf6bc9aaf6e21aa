import { useEffect } from 'react';
import { siteInfo } from './siteInfo.ts';

/** Sets the tab title: "Page · SITE_TITLE", or just SITE_TITLE without a page name. */
export function useDocumentTitle(pageName: string | null) {
  useEffect(() => {
    const site = siteInfo().title;
    document.title = pageName ? `${pageName} · ${site}` : site;
  }, [pageName]);
}
