/**
 * Where a browser goes after signing in with a provider: a path on this site, never another
 * origin (an open redirect would hand a phishing page a trusted link). Anything else is '/'.
 */
export function sameOriginPath(requested: unknown, publicUrl: string): string {
  if (typeof requested !== 'string' || requested.length === 0 || requested.length > 2000) return '/';
  // '//host' and '/\host' are other origins to a browser; control characters are never in a path we made.
  if (!requested.startsWith('/') || requested.startsWith('//') || requested.startsWith('/\\')) return '/';
  if (/[\p{Cc}\\]/u.test(requested)) return '/';
  const origin = new URL(publicUrl).origin;
  let url: URL;
  try {
    url = new URL(requested, origin);
  } catch {
    return '/';
  }
  if (url.origin !== origin) return '/';
  // Back into the provider flow would loop.
  if (url.pathname.startsWith('/identity/')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
