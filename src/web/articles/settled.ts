import { useEffect, useState } from 'react';
import { ArticlesApiError } from '../api/articlesApiError.ts';

/** The outcome of a call, as a value: a promise of this never rejects. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: ArticlesApiError };

/**
 * Loaders hand screens un-awaited calls, so that the call runs while the screen's code
 * downloads; settling them means an early failure is never an unhandled rejection.
 */
export function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({
      ok: false,
      error: error instanceof ArticlesApiError ? error : new ArticlesApiError(String(error), 0),
    }),
  );
}

/**
 * A call whose outcome is already here (the page's served data, ssr/servedScreen.ts): screens
 * render it in their first render, as the server did, instead of a skeleton for one frame.
 */
export function settledNow<T>(result: Settled<T>): Promise<Settled<T>> {
  return Object.assign(Promise.resolve(result), { known: result });
}

/** The outcome of a call made by settledNow; undefined for any other. */
export function knownOutcome<T>(promise: Promise<Settled<T>>): Settled<T> | undefined {
  return (promise as { known?: Settled<T> }).known;
}

/** The outcome of `promise` once it is known; undefined while it runs (and again for a new promise). */
export function useSettled<T>(promise: Promise<Settled<T>>): Settled<T> | undefined {
  const [done, setDone] = useState<{ promise: Promise<Settled<T>>; result: Settled<T> } | null>(null);
  useEffect(() => {
    let current = true;
    void promise.then((result) => {
      if (current) setDone({ promise, result });
    });
    return () => {
      current = false;
    };
  }, [promise]);
  return done?.promise === promise ? done.result : knownOutcome(promise);
}
