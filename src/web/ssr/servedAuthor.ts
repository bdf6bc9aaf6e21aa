import type { ServedScreen } from '../../shared/servedScreen.ts';
import { readServedScreen } from './servedScreen.ts';

// The screen being rendered on the server (renderScreen.tsx), which has no page to read it from.
let onServer: ServedScreen | null = null;

/** Set by the server's renderer around the one screen it renders. */
export function setScreenOnServer(screen: ServedScreen | null): void {
  onServer = screen;
}

/**
 * The name of the author whose page the server rendered, when it was `uid`'s: an author with
 * no articles yet is named by it alone, on the server and when the app takes the page over.
 */
export function servedAuthorName(uid: string): string | null {
  const screen = typeof document === 'undefined' ? onServer : readServedScreen();
  return screen?.kind === 'author' && screen.uid === uid ? screen.name : null;
}
