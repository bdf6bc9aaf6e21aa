import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** What a screen may hand the next one with its navigation (`navigate(path, { state })`). */
export interface RouteNoticeState {
  notice: string;
}

/**
 * A notice the previous screen handed over, such as sign-up's "a verification link has been
 * sent" on the home page it goes on to. Its text travels in the navigation, so the screen that
 * shows it carries no text of another screen's (the home page's JavaScript budget).
 */
export function RouteNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const handed = (location.state as Partial<RouteNoticeState> | null)?.notice;
  const [notice] = useState(typeof handed === 'string' ? handed : '');
  // Shown once: the history entry forgets it, so a reload or a return does not say it again.
  // Only while that entry is still the browser's: a link followed before this code ran (it loads
  // on demand) has moved on already, and replacing the old entry would undo that navigation.
  useEffect(() => {
    if (handed === undefined) return;
    const here = window.location;
    if (here.pathname !== location.pathname || here.search !== location.search) return;
    void navigate(location, { replace: true, state: null });
  }, [handed, location, navigate]);
  if (notice === '') return null;
  return (
    <p
      role="status"
      data-testid="route-notice"
      className="mb-6 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-200"
    >
      {notice}
    </p>
  );
}
