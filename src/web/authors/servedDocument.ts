/**
 * What the server said about the page the browser loaded: its HTTP status and head tags. The
 * articles API answers an unknown author with an empty list (docs/architecture.md, Articles API); only the page's own
 * answer (404) and head (the author's name) tell an unknown uid from an author with no articles.
 * They describe the document's URL only, so they count only while that screen is still shown.
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

/** A head tag's content (by name or property) the server wrote for the document at `pathname`. */
export function servedMeta(pathname: string, key: string): string | null {
  if (!servedNavigation(pathname)) return null;
  const tag = document.head.querySelector<HTMLMetaElement>(`meta[property="${key}"], meta[name="${key}"]`);
  return tag?.content.trim() || null;
}
