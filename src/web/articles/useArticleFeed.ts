import { startTransition, useCallback, useEffect, useReducer } from 'react';
import { PAGE_SIZE } from './articlePrefetch.ts';
import type { Article, ArticlesPage } from './articleTypes.ts';
import { articlesApi } from './articlesApi.ts';
import { settle, type Settled } from './settled.ts';

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
 * A list of articles: the first page from a call started early (see articlePrefetch), further
 * pages on demand. `author` narrows it to one author's articles (the author page).
 */
export function useArticleFeed(firstPage: Promise<Settled<ArticlesPage>>, author?: string) {
  const [state, dispatch] = useReducer(feedReducer, firstPage, (source) => ({
    source,
    status: 'loading' as const,
    articles: [],
    nextCursor: null,
  }));

  // A new first-page call (a new visit to the home screen) starts the list over.
  if (state.source !== firstPage) dispatch({ type: 'reset', source: firstPage });

  useEffect(() => {
    let current = true;
    void firstPage.then((result) => {
      // A page of cards is the biggest render of the screen: as a transition React renders it
      // in slices that let the browser in between, not as one long task (Lighthouse TBT).
      if (current) startTransition(() => dispatch({ type: 'settled', source: firstPage, more: false, result }));
    });
    return () => {
      current = false;
    };
  }, [firstPage]);

  const { source, status, nextCursor } = state;

  const fetchPage = useCallback(
    async (more: boolean) => {
      dispatch({ type: 'request', more });
      const result = await settle(articlesApi.list({ limit: PAGE_SIZE, cursor: more ? nextCursor : null, author }));
      startTransition(() => dispatch({ type: 'settled', source, more, result }));
    },
    [source, nextCursor, author],
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
    hasMore: nextCursor !== null,
    loadMore,
    retry,
    remove,
  };
}
