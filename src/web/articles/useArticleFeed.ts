import { startTransition, useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { PAGE_SIZE } from './articlePrefetch.ts';
import type { Article, ArticlesPage } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';
import { knownOutcome, settle, type Settled } from './settled.ts';

/**
 * loading: first page on its way; ready: idle (more may follow); loadingMore: next page on its
 * way; failed / moreFailed: the last call failed and Retry repeats it.
 */
export type FeedStatus = 'loading' | 'ready' | 'loadingMore' | 'failed' | 'moreFailed';

interface FeedState {
  source: Promise<Settled<ArticlesPage>>;
  status: FeedStatus;
  articles: Article[];
  nextCursor: string | null;
}

type FeedAction =
  | { type: 'reset'; source: Promise<Settled<ArticlesPage>> }
  | { type: 'request'; more: boolean }
  | { type: 'settled'; source: Promise<Settled<ArticlesPage>>; more: boolean; result: Settled<ArticlesPage> }
  | { type: 'removed'; id: string };

function feedReducer(state: FeedState, action: FeedAction): FeedState {
  switch (action.type) {
    case 'reset':
      return { source: action.source, status: 'loading', articles: [], nextCursor: null };
    case 'request':
      return { ...state, status: action.more ? 'loadingMore' : 'loading' };
    case 'settled': {
      // An answer meant for a list that has since been reloaded is stale.
      if (action.source !== state.source) return state;
      if (!action.result.ok) return { ...state, status: action.more ? 'moreFailed' : 'failed' };
      const page = action.result.value;
      // A page may overlap the one before when articles were added meanwhile: keep each id once.
      const known = new Set(action.more ? state.articles.map((article) => article.id) : []);
      const fresh = page.articles.filter((article) => !known.has(article.id));
      return {
        ...state,
        status: 'ready',
        articles: action.more ? [...state.articles, ...fresh] : fresh,
        nextCursor: page.nextCursor,
      };
    }
    case 'removed':
      return { ...state, articles: state.articles.filter((article) => article.id !== action.id) };
  }
}

/**
 * The list as it was last shown, with the history entry it was shown in: Back from an article
 * returns to that entry, and finds the pages it had loaded and the place it was scrolled to.
 */
let kept: { key: string; state: FeedState; scrollY: number; focusedTitle?: string } | null = null;

/**
 * A list of articles: the first page from a call started early (see articlePrefetch), further
 * pages on demand. `author` narrows it to one author's articles (the author page), `tag` to one
 * tag's (the tag page).
 */
export function useArticleFeed(firstPage: Promise<Settled<ArticlesPage>>, author?: string, tag?: string) {
  const { key } = useLocation();
  const back = useNavigationType() === 'POP';
  // Decided once per visit: a Back (or Forward) to the entry the kept list was shown in.
  const [restored] = useState(() => (back && kept?.key === key ? kept : null));
  const [state, dispatch] = useReducer(feedReducer, firstPage, (source): FeedState => {
    if (restored) return { ...restored.state, source };
    // A first page already here (the server rendered it) is shown in the first render, as it was served.
    const served = knownOutcome(source);
    return served?.ok
      ? { source, status: 'ready', ...served.value }
      : { source, status: 'loading', articles: [], nextCursor: null };
  });

  // A new first-page call (a new visit to the home screen) starts the list over.
  if (state.source !== firstPage) dispatch({ type: 'reset', source: firstPage });

  // Where the list is scrolled to and what it holds, read when the screen goes (a layout effect's
  // cleanup runs as the screen is removed, before the shorter next page moves the scroll position).
  // The history entry too: the Home link followed from home replaces the entry without a new screen.
  const latest = useRef({ state, scrollY: 0, key });
  useLayoutEffect(() => {
    latest.current.state = state;
    latest.current.key = key;
  });
  useLayoutEffect(() => {
    if (restored) {
      window.scrollTo(0, restored.scrollY);
      // Focus back on the card that was followed, so the keyboard carries on from there too.
      const title = restored.focusedTitle ? document.getElementById(restored.focusedTitle) : null;
      title?.querySelector('a')?.focus({ preventScroll: true });
    }
    const seen = latest.current; // one object for the screen's life, updated in place
    const onScroll = () => {
      seen.scrollY = window.scrollY;
    };
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      const { state: last, scrollY, key: shownIn } = seen;
      // Only a list worth coming back to: loaded, with nothing on its way.
      const focusedTitle = document.activeElement?.closest('article')?.getAttribute('aria-labelledby') ?? undefined;
      kept =
        last.status === 'ready' || last.status === 'moreFailed'
          ? { key: shownIn, state: last, scrollY, focusedTitle }
          : null;
    };
  }, [restored]);

  useEffect(() => {
    // The kept pages stand in for the first page: its answer would cut the list back to one page.
    if (restored) return;
    let current = true;
    void firstPage.then((result) => {
      // A page of cards is the biggest render of the screen: as a transition React renders it
      // in slices that let the browser in between, not as one long task (Lighthouse TBT).
      if (current) startTransition(() => dispatch({ type: 'settled', source: firstPage, more: false, result }));
    });
    return () => {
      current = false;
    };
  }, [firstPage, restored]);

  const { source, status, nextCursor } = state;

  const fetchPage = useCallback(
    async (more: boolean) => {
      dispatch({ type: 'request', more });
      const result = await settle(
        articlesApi.list({ limit: PAGE_SIZE, cursor: more ? nextCursor : null, author, tag }),
      );
      startTransition(() => dispatch({ type: 'settled', source, more, result }));
    },
    [source, nextCursor, author, tag],
  );

  const loadMore = useCallback(() => {
    if (status === 'ready' && nextCursor) void fetchPage(true);
  }, [status, nextCursor, fetchPage]);

  const retry = useCallback(() => {
    if (status === 'failed') void fetchPage(false);
    else if (status === 'moreFailed') void fetchPage(true);
  }, [status, fetchPage]);

  const remove = useCallback((id: string) => dispatch({ type: 'removed', id }), []);

  return {
    articles: state.articles,
    status,
    /** Where the next page starts (null after the last): Load more links there, for a page without script. */
    nextCursor,
    loadMore,
    retry,
    remove,
  };
}
