/** Reads the claims of a JWT without verifying it: the server verifies; the client only needs timing. */
export function readTokenClaims(jwt: string): { exp?: number; iat?: number; sub?: string; role?: unknown } {
  const payload = jwt.split('.')[1];
  if (payload === undefined) return {};
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const claims: unknown = JSON.parse(json);
    return claims !== null && typeof claims === 'object' ? (claims as { exp?: number; iat?: number }) : {};
  } catch {
    return {};
  }
}

/**
 * When a just-received token expires, on this browser's clock: its lifetime (the answer's
 * `expiresIn`, else `exp − iat`) from now, so a skewed local clock cannot shorten or stretch it.
 */
export function expiryOf(jwt: string, expiresInSeconds: string | undefined, now: number): number {
  const lifetime = Number(expiresInSeconds);
  if (Number.isFinite(lifetime) && lifetime > 0) return now + lifetime * 1000;
  const { exp, iat } = readTokenClaims(jwt);
  if (typeof exp === 'number' && typeof iat === 'number' && exp > iat) return now + (exp - iat) * 1000;
  // Unknown lifetime: treat it as already stale so the next use refreshes it.
  return now;
}
