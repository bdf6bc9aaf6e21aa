import { isRole } from '../shared/roles.ts';
import { fetchedAheadFor } from '../shared/codeAhead.ts';
import { screenAt, screenTable, type ScreenName } from '../shared/routes.ts';
import type { AuthSession } from './auth/authSession.ts';
import { readTokenClaims } from './auth/idToken.ts';

/** A screen's code loader (router.tsx), by screen: the home screen is in the main bundle. */
export type ScreenLoaders = Record<Exclude<ScreenName, 'home'>, () => Promise<unknown>>;

type Session = Pick<AuthSession, 'state' | 'onAuthStateChanged' | 'getIdToken'>;

/**
 * Fetches ahead the code of the screens this visitor can use next (their records' `codeAhead`,
 * routes.ts): when the browser is idle, the reading screens and the way in for everyone, then,
 * once someone is signed in, their profile and, by the role their ID token names, the staff screens;
 * the others on a pointer or focus on a link or form to them. A signed-out reader no longer
 * downloads the admin, moderation, tag and search code (decision 0760). Loaded by main.tsx
 * after the page's load event, in a chunk of its own: the home page's budget does not carry it.
 */
export function fetchScreensAhead(loaders: ScreenLoaders, session: Session): void {
  const names = Object.keys(loaders) as Array<keyof ScreenLoaders>;
  const fetched = new Set<keyof ScreenLoaders>();
  const fetchAhead = (name: keyof ScreenLoaders) => {
    if (fetched.has(name)) return;
    fetched.add(name);
    void loaders[name]().catch(() => fetched.delete(name));
  };
  // Idle, or at the latest 3 s on: a page that never idles (a busy phone, a machine under load)
  // would otherwise never fetch ahead, and its next screen would wait for the network.
  const whenIdle = (run: () => void) =>
    window.requestIdleCallback ? window.requestIdleCallback(run, { timeout: 3_000 }) : setTimeout(run, 1_000);
  const visitor = async () => {
    if (session.state.status !== 'signedIn') return { signedIn: false } as const;
    const token = await session.getIdToken().catch(() => null);
    const role = token === null ? undefined : readTokenClaims(token).role;
    return { signedIn: true, role: isRole(role) ? role : null } as const;
  };
  const fetchForVisitor = () =>
    whenIdle(() => {
      void visitor().then((who) => {
        for (const name of names) if (fetchedAheadFor(screenTable[name], who)) fetchAhead(name);
      });
    });
  fetchForVisitor();
  // Signing in (here or in another tab) opens the screens that need it.
  session.onAuthStateChanged((state) => {
    if (state.status === 'signedIn') fetchForVisitor();
  });

  const onIntent = (event: Event) => {
    if (!(event.target instanceof Element)) return;
    const target = event.target.closest('a[href], form[action]');
    if (!target) return;
    const url = target instanceof HTMLFormElement ? target.action : (target as HTMLAnchorElement).href;
    const screen = screenAt(new URL(url, window.location.href).pathname);
    if (screen && screen.name !== 'home' && screen.screen.codeAhead === 'intent') fetchAhead(screen.name);
  };
  for (const type of ['pointerover', 'focusin', 'touchstart'])
    document.addEventListener(type, onIntent, { passive: true });
}
