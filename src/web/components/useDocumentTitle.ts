import { useEffect } from 'react';
import { pageTitle } from './siteInfo.ts';

/** Sets the tab title: "Page – SITE_TITLE", or just SITE_TITLE without a page name. */
export function useDocumentTitle(pageName: string | null) {
  useEffect(() => {
    document.title = pageTitle(pageName);
  }, [pageName]);
}
