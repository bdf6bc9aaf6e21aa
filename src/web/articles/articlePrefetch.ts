import { useState } from 'react';
import { ARTICLE_PAGE_DEFAULT_LIMIT } from '../../shared/articlePaging.ts';
import { articlePath, articlesListPath } from '../../shared/articlesApiPaths.ts';
import { firstDataPath } from '../../shared/routes.ts';
import type { ArticleDetail, ArticlesPage } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';
import type { ServedScreen } from '../../shared/servedScreen.ts';
import { settle, settledNow, type Settled } from './settled.ts';

/**
 * Articles per page of the home list: the API's default, which the server also uses to build
 * the home shell's preload URL (src/server/articles/createArticles.ts). The two URLs must match
 * to the byte for the browser to reuse the preloaded answer.
 */
export const PAGE_SIZE = ARTICLE_PAGE_DEFAULT_LIMIT;

// Calls started before the screen that needs them has rendered — at boot, or when a card is
// clicked — so the API call runs while the screen's code downloads instead of after it. Keyed by
// their path under /api: the screen table's first data (routes.ts) is the same function.
const started = new Map<string, Promise<Settled<unknown>>>();

const listPath = () => articlesListPath({ limit: PAGE_SIZE });
const authorListPath = (uid: string) => articlesListPath({ author: uid, limit: PAGE_SIZE });

/** Starts the call the screen at `pathname` will make first (its record's first data). Called once at boot. */
export function prefetchForPath(pathname: string): void {
  const path = firstDataPath(pathname);
  if (path !== null) started.set(path, settle(articlesApi.read(path)));
}

/**
 * The first calls of the screen the server rendered, answered with the data it rendered from
 * (the page's data block in the browser; the server's own render, renderScreen.tsx).
 */
export function primeServedScreen(screen: ServedScreen): void {
  // The search screen takes its served results itself (SearchPage.tsx): its code is not the home page's.
  if (screen.kind === 'search') return;
  const [path, value] =
    screen.kind === 'article'
      ? [articlePath(screen.article.id), screen.article]
      : [
          screen.kind === 'home'
            ? listPath()
            : screen.kind === 'tag'
              ? articlesListPath({ tag: screen.slug, limit: PAGE_SIZE })
              : authorListPath(screen.uid),
          screen.page,
        ];
  started.set(path, settledNow<unknown>({ ok: true, value }));
}

/** Drops every call started ahead (the server, after each render: its module state outlives a request). */
export function forgetStartedCalls(): void {
  started.clear();
}

export function prefetchArticle(id: string): void {
  started.set(articlePath(id), settle(articlesApi.get(id)));
}

/** The prefetched call for `key` (its path under /api), used once (a later visit fetches afresh), or a new call. */
export function takeStarted<T>(key: string, start: () => Promise<Settled<T>>): Promise<Settled<T>> {
  const call = started.get(key) as Promise<Settled<T>> | undefined;
  if (!call) return start();
  // Not deleted at once: React may run a component's initialiser twice in one render.
  setTimeout(() => {
    if (started.get(key) === call) started.delete(key);
  });
  return call;
}

/** The home list's first page: one call per visit to the home screen. */
export function useFirstPageCall(): Promise<Settled<ArticlesPage>> {
  const [call] = useState(() => takeStarted(listPath(), () => settle(articlesApi.list({ limit: PAGE_SIZE }))));
  return call;
}

/** The first page of one author's articles: one call per visit (and per author shown). */
export function useAuthorFirstPageCall(uid: string): Promise<Settled<ArticlesPage>> {
  const [current, setCurrent] = useState(() => ({
    uid,
    call: takeStarted(authorListPath(uid), () => settle(articlesApi.list({ limit: PAGE_SIZE, author: uid }))),
  }));
  if (current.uid === uid) return current.call;
  const next = {
    uid,
    call: takeStarted(authorListPath(uid), () => settle(articlesApi.list({ limit: PAGE_SIZE, author: uid }))),
  };
  setCurrent(next);
  return next.call;
}

/** The article `id`: one call per id shown. */
export function useArticleCall(id: string): Promise<Settled<ArticleDetail>> {
  const [current, setCurrent] = useState(() => ({
    id,
    call: takeStarted(articlePath(id), () => settle(articlesApi.get(id))),
  }));
  if (current.id === id) return current.call;
  const next = { id, call: takeStarted(articlePath(id), () => settle(articlesApi.get(id))) };
  setCurrent(next);
  return next.call;
}
