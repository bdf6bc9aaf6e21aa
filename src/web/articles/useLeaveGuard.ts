import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { isAppRoute } from '../../shared/routes.ts';

/** Where a held-back navigation was going: a path in the app, or a step through history (Back). */
export type HeldNavigation = { kind: 'path'; to: string } | { kind: 'traverse'; key: string };

/** The parts of the Navigation API this uses (Chromium, Safari and Firefox have it). */
interface NavigateEventLike extends Event {
  navigationType: string;
  destination: { key: string; sameDocument: boolean };
}
interface NavigationLike extends EventTarget {
  traverseTo(key: string): unknown;
}

/** A click that would open `anchor`'s in-app address in this tab; null for anything else. */
function inAppTarget(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  const url = new URL(anchor.href, window.location.href);
  // Other sites, and this server's files (the feed, say): a page load, which beforeunload covers.
  if (url.origin !== window.location.origin || !isAppRoute(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Holds back leaving a screen while `changed` (issue 15: leaving the editor with unsaved changes
 * asks first). React Router's useBlocker needs its data router, which the home page's JavaScript
 * budget cannot carry (router.tsx), so this covers the three ways out itself:
 * - links (the Cancel and Home links, the top bar): a click caught before React Router's own
 *   handler sees it;
 * - Back and Forward: the Navigation API's cancelable `navigate` event, before React Router's
 *   popstate (without the API, Back leaves, and the draft is still kept in sessionStorage);
 * - reloading or closing the tab: `beforeunload`, where the browser asks in its own words.
 * `held` is the navigation waiting for an answer: `proceed()` carries it out, `stay()` drops it.
 */
export function useLeaveGuard(changed: boolean) {
  const navigate = useNavigate();
  const [held, setHeld] = useState<HeldNavigation | null>(null);
  // A confirmed traversal must not be held back again by the listener that stopped it.
  const letThrough = useRef(false);

  useEffect(() => {
    if (!changed) return;
    const onClick = (event: MouseEvent) => {
      const to = inAppTarget(event);
      if (to === null) return;
      event.preventDefault();
      event.stopPropagation();
      setHeld({ kind: 'path', to });
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    const navigation = (window as { navigation?: NavigationLike }).navigation;
    const onNavigate = (event: Event) => {
      const { navigationType, destination, cancelable } = event as NavigateEventLike;
      if (navigationType !== 'traverse' || !destination.sameDocument || !cancelable || letThrough.current) return;
      event.preventDefault();
      setHeld({ kind: 'traverse', key: destination.key });
    };
    // Capture on document: before React's listeners on the root element.
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    navigation?.addEventListener('navigate', onNavigate);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
      navigation?.removeEventListener('navigate', onNavigate);
    };
  }, [changed]);

  return {
    held,
    stay: () => setHeld(null),
    proceed: () => {
      if (!held) return;
      setHeld(null);
      if (held.kind === 'path') {
        void navigate(held.to);
        return;
      }
      letThrough.current = true;
      (window as { navigation?: NavigationLike }).navigation?.traverseTo(held.key);
    },
  };
}
