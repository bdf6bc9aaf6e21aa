import { SERVED_SCREEN_ELEMENT_ID, type ServedScreen } from '../../shared/servedScreen.ts';

/**
 * The screen the server rendered into this page, from its data block (main.tsx reads it once at
 * boot and provides it, servedPage.ts); null when the page came without one (every screen but
 * those whose record says `serverRendered`, routes.ts).
 */
export function readServedScreen(): ServedScreen | null {
  // Written by the server (ssrScreens.ts): well-formed JSON whenever it is there.
  const text = document.getElementById(SERVED_SCREEN_ELEMENT_ID)?.textContent;
  return text ? (JSON.parse(text) as ServedScreen) : null;
}
