/**
 * Whether the server answers at all (its readiness probe, within 5 s): a screen that failed tells
 * "the server is unreachable" from "this tab's code is out of date" by it. Offline: no call.
 */
export function serverReachable(): Promise<boolean> {
  if (!navigator.onLine) return Promise.resolve(false);
  return fetch('/readyz', { cache: 'no-store', signal: AbortSignal.timeout(5_000) }).then(
    () => true,
    () => false,
  );
}
