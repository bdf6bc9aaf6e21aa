import { createContext, useContext } from 'react';
import type { ServedScreen } from '../../shared/servedScreen.ts';

/**
 * What the server put into this page (decision 0301): the screen it rendered with its data (null
 * when it sent the bare shell), and on the server, the comments' markup it rendered beforehand
 * (decision 0600). The browser provides the page's data block read at boot (main.tsx); the
 * server's renderer the screen of that one render (ssr/renderScreen.tsx): no module state is set
 * around a render, so two renders can never read each other's screen (decision 0761).
 */
export interface ServedPage {
  screen: ServedScreen | null;
  commentsHtml?: string | null;
}

export const ServedPageContext = createContext<ServedPage>({ screen: null });

export function useServedPage(): ServedPage {
  return useContext(ServedPageContext);
}
