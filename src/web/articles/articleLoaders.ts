import type { LoaderFunctionArgs } from 'react-router';
import type { Article, ArticlesPage } from './articleTypes.ts';
import { articlesApi } from './articlesApi.ts';
import { settle, type Settled } from './settled.ts';

/** Articles per page of the home list (the API's default). */
export const PAGE_SIZE = 20;

// These run from the router, in the main bundle: the API call starts at navigation and runs
// while a lazy screen's code downloads. They never await, so a screen shows its skeleton at once.

export interface HomeLoaderData {
  firstPage: Promise<Settled<ArticlesPage>>;
}

export function homeLoader(): HomeLoaderData {
  return { firstPage: settle(articlesApi.list({ limit: PAGE_SIZE })) };
}

export interface ArticleLoaderData {
  article: Promise<Settled<Article>>;
}

export function articleLoader({ params }: LoaderFunctionArgs): ArticleLoaderData {
  return { article: settle(articlesApi.get(params.id ?? '')) };
}
