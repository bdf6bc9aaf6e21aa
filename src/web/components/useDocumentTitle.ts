import { useEffect } from 'react';

const APP_NAME = 'Inkwell';

/** Sets the tab title: "Page · Inkwell", or just "Inkwell" without a page name. */
export function useDocumentTitle(pageName: string | null) {
  useEffect(() => {
    document.title = pageName ? `${pageName} · ${APP_NAME}` : APP_NAME;
  }, [pageName]);
}
