import type { AuthorProfile } from '../../shared/authorProfile.ts';
import type { ServedScreen } from '../../shared/servedScreen.ts';
import { readServedScreen } from './servedScreen.ts';

// The screen being rendered on the server (renderScreen.tsx), which has no page to read it from.
let onServer: ServedScreen | null = null;

/** Set by the server's renderer around the one screen it renders. */
export function setScreenOnServer(screen: ServedScreen | null): void {
  onServer = screen;
}

/**
 * The profile of the author whose page the server rendered, when it was at `slug`: the page
 * shows it at once, on the server and when the app takes the page over, without asking again.
 */
export function servedAuthor(slug: string): AuthorProfile | null {
  const screen = typeof document === 'undefined' ? onServer : readServedScreen();
  return screen?.kind === 'author' && screen.author.slug === slug ? screen.author : null;
}
