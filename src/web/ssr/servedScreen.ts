import { SERVED_SCREEN_ELEMENT_ID, type ServedScreen } from '../../shared/servedScreen.ts';

/**
 * True when this page arrived with a screen the server rendered (home, article, author;
 * decision 0301): it reads the same to everyone, so it does not wait for the sign-in state
 * (AppLayout). Set by readServedScreen in the browser and by the server's renderer.
 */
export let pageServed = false;

/** The server's renderer (renderScreen.tsx): every page it renders is a served one. */
export function markPageServed(): void {
  pageServed = true;
}

/**
 * The screen the server rendered into this page, from its data block (main.tsx reads it at
 * boot); null when the page came without one (every screen but home, article and author).
 */
export function readServedScreen(): ServedScreen | null {
  // Written by the server (ssrScreens.ts): well-formed JSON whenever it is there.
  const text = document.getElementById(SERVED_SCREEN_ELEMENT_ID)?.textContent;
  pageServed = !!text;
  return text ? (JSON.parse(text) as ServedScreen) : null;
}
