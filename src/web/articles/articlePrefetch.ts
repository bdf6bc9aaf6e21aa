import { useState } from 'react';
import { ARTICLE_PAGE_DEFAULT_LIMIT } from '../../shared/articlePaging.ts';
import { matchArticlePath } from '../../shared/routes.ts';
import type { ArticleDetail, ArticlesPage } from './articleTypes.ts';
import { articlesApi } from './articlesApi.ts';
import type { ServedScreen } from '../../shared/servedScreen.ts';
import { settle, settledNow, type Settled } from './settled.ts';

/**
 * Articles per page of the home list: the API's default, which the server also uses to build
 * the home shell's preload URL (src/server/articles/createArticles.ts). The two URLs must match
 * to the byte for the browser to reuse the preloaded answer.
 */
export const PAGE_SIZE = ARTICLE_PAGE_DEFAULT_LIMIT;

// Calls started before the screen that needs them has rendered — at boot, or when a card is
// clicked — so the API call runs while the screen's code downloads instead of after it.
const started = new Map<string, Promise<Settled<unknown>>>();

const listKey = 'list';
const articleKey = (id: string) => `article:${id}`;
const authorKey = (uid: string) => `author:${uid}`;

function fetchFirstPage() {
  return settle(articlesApi.list({ limit: PAGE_SIZE }));
}

function fetchAuthorFirstPage(uid: string) {
  return settle(articlesApi.list({ limit: PAGE_SIZE, author: uid }));
}

function fetchArticle(id: string) {
  return settle(articlesApi.get(id));
}

/** Starts the call the screen at `pathname` will make first. Called once at boot. */
export function prefetchForPath(pathname: string): void {
  if (pathname === '/') {
    started.set(listKey, fetchFirstPage());
    return;
  }
  const id = matchArticlePath(pathname);
  if (id !== null) prefetchArticle(id);
}

/**
 * The first calls of the screen the server rendered, answered with the data it rendered from
 * (the page's data block in the browser; the server's own render, renderScreen.tsx).
 */
export function primeServedScreen(screen: ServedScreen): void {
  const [key, value] =
    screen.kind === 'article'
      ? [articleKey(screen.article.id), screen.article]
      : [screen.kind === 'home' ? listKey : authorKey(screen.uid), screen.page];
  started.set(key, settledNow<unknown>({ ok: true, value }));
}

/** Drops every call started ahead (the server, after each render: its module state outlives a request). */
export function forgetStartedCalls(): void {
  started.clear();
}

export function prefetchArticle(id: string): void {
  started.set(articleKey(id), fetchArticle(id));
}

/** The prefetched call for `key`, used once (a later visit fetches afresh), or a new call. */
function take<T>(key: string, start: () => Promise<Settled<T>>): Promise<Settled<T>> {
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
  const [call] = useState(() => take(listKey, fetchFirstPage));
  return call;
}

/** The first page of one author's articles: one call per visit (and per author shown). */
export function useAuthorFirstPageCall(uid: string): Promise<Settled<ArticlesPage>> {
  const [current, setCurrent] = useState(() => ({ uid, call: take(authorKey(uid), () => fetchAuthorFirstPage(uid)) }));
  if (current.uid === uid) return current.call;
  const next = { uid, call: take(authorKey(uid), () => fetchAuthorFirstPage(uid)) };
  setCurrent(next);
  return next.call;
}

/** The article `id`: one call per id shown. */
export function useArticleCall(id: string): Promise<Settled<ArticleDetail>> {
  const [current, setCurrent] = useState(() => ({ id, call: take(articleKey(id), () => fetchArticle(id)) }));
  if (current.id === id) return current.call;
  const next = { id, call: take(articleKey(id), () => fetchArticle(id)) };
  setCurrent(next);
  return next.call;
}
