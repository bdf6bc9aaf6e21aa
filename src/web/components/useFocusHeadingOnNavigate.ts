import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

/**
 * After a client-side navigation, moves focus to the new screen's <h1>, so keyboard and screen
 * reader users start at the top of what changed (a full page load starts there anyway, so the
 * first screen is left alone). Screens whose code or data is still loading get their heading
 * focused when it appears; a screen that already focused something itself (autofocus) keeps it.
 */
export function useFocusHeadingOnNavigate(mainRef: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  // The path last shown: re-running effects (StrictMode) must not count as a navigation.
  const shown = useRef(pathname);

  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const main = mainRef.current;
    if (!main) return;

    const focusHeading = (): boolean => {
      const active = document.activeElement;
      if (active && active !== main && main.contains(active) && active.tagName !== 'H1') return true;
      const heading = main.querySelector('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      // Without scrolling: a screen restored by Back keeps the place it was scrolled to.
      heading.focus({ preventScroll: true });
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    // A screen that never shows a heading (a failure state) stops the watch.
    const timer = window.setTimeout(() => observer.disconnect(), 10_000);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [pathname, mainRef]);
}
