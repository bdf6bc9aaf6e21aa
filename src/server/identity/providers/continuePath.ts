/**
 * Where a browser goes after signing in with a provider: a path on this site, never another
 * origin (an open redirect would hand a phishing page a trusted link). Anything else is '/'.
 *
 * The requested value is resolved by the WHATWG URL parser against the site's origin, as a
 * browser resolves a Location header, and the check is made on what that parse produced
 * (after dot segments, `%2e` and backslashes are resolved), not on the text as sent:
 * `/.//evil.example` resolves to the path `//evil.example`, which a browser would read as
 * another host. The path handed back must itself resolve, by the same parser, to the same URL
 * on this origin (decision 0560).
 */
export function sameOriginPath(requested: unknown, publicUrl: string): string {
  if (typeof requested !== 'string' || requested.length === 0 || requested.length > 2000) return '/';
  // Only a path: an absolute URL, even one naming this site, is not what the app sends.
  if (!requested.startsWith('/')) return '/';
  // Control characters (the parser would drop tabs and newlines silently) are never in a path we made.
  if (/\p{Cc}/u.test(requested)) return '/';
  const origin = new URL(publicUrl).origin;
  let url: URL;
  try {
    url = new URL(requested, origin);
  } catch {
    return '/';
  }
  if (url.origin !== origin) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // '//host' (or '/\host', which the parser turns into '//host') names another host to a browser.
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return '/';
  let again: URL;
  try {
    again = new URL(path, origin);
  } catch {
    return '/';
  }
  if (again.origin !== origin || again.href !== url.href) return '/';
  // Back into the provider flow would loop.
  if (url.pathname.startsWith('/identity/')) return '/';
  return path;
}
