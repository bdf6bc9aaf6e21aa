import { roleAtLeast, type Role } from './roles.ts';
import type { ScreenRecord } from './routes.ts';

/** Who is looking: signed out, or signed in with the role their ID token names (null: none it knows). */
export type Visitor = { signedIn: false } | { signedIn: true; role: Role | null };

/**
 * Whether a screen's code is fetched ahead for this visitor when the browser is idle (its record's
 * `codeAhead`, routes.ts). The web app fetches by it (src/web/screensAhead.ts) and the build counts
 * the signed-out set against its budget (scripts/bundleBudgetPlugin.ts). Not in routes.ts: the
 * role ranking would ride along into the home page's bundle.
 */
export function fetchedAheadFor(screen: ScreenRecord, visitor: Visitor): boolean {
  const ahead = screen.codeAhead;
  if (ahead === 'idle') return true;
  if (ahead === 'intent' || !visitor.signedIn) return false;
  return ahead === 'signedIn' || (visitor.role !== null && roleAtLeast(visitor.role, ahead));
}
