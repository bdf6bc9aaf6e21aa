/**
 * What the server said about the page the browser loaded: its HTTP status (404 for an author
 * page nobody has). It describes the document's URL only, so it counts only while that screen
 * is still shown.
 */
function servedNavigation(pathname: string): PerformanceNavigationTiming | null {
  if (typeof performance === 'undefined') return null;
  const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  if (!entry || new URL(entry.name).pathname !== pathname) return null;
  return entry;
}

/** The HTTP status the document at `pathname` was served with, when this is that document. */
export function servedStatus(pathname: string): number | null {
  // responseStatus: Chromium 109+, Firefox 2024+; older browsers fall back to the API's answer.
  const status = servedNavigation(pathname)?.responseStatus;
  return typeof status === 'number' && status > 0 ? status : null;
}
