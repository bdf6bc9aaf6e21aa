import { useRef, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { tagSlug } from '../../shared/tags.ts';
import { articlesListPath } from '../../shared/articlesApiPaths.ts';
import { PAGE_SIZE, takeStarted } from '../articles/articlePrefetch.ts';
import { articlesApi } from '../api/articlesApi.ts';
import { settle } from '../articles/settled.ts';
import { ArticleList } from '../articles/ArticleList.tsx';
import { ListFailures } from '../components/LoadFailure.tsx';
import { useArticleFeed } from '../articles/useArticleFeed.ts';
import { useListDeletion } from '../articles/useListDeletion.tsx';
import { useAuth } from '../auth/useAuth.ts';
import { servedStatus } from '../served/servedDocument.ts';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';

/** `/tag/:slug`: the published articles with one tag, newest first, a page at a time (DESIGN.md §8.5). */
export default function TagPage() {
  const { slug = '' } = useParams();
  const { pathname } = useLocation();
  // The server answered 404 when no published article has this tag.
  if (servedStatus(pathname) === 404) return <NotFoundPage />;
  return <TagArticles key={slug} slug={slug} />;
}

function TagArticles({ slug }: { slug: string }) {
  const { state: auth } = useAuth();
  // The tag screen's first data (routes.ts): started at boot when the visit began here, the same URL
  // as the server's preload hint, whose answer the browser reuses; made here on a later visit.
  const [firstPage] = useState(() =>
    takeStarted(articlesListPath({ tag: slug, limit: PAGE_SIZE }), () =>
      settle(articlesApi.list({ limit: PAGE_SIZE, tag: slug })),
    ),
  );
  const feed = useArticleFeed(firstPage, undefined, slug);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const deletion = useListDeletion(feed.remove, headingRef);
  const { status, articles } = feed;
  // The tag's name (the spelling first used) travels with every article that has it.
  const name = articles.flatMap((article) => article.tags).find((tag) => tagSlug(tag) === slug);
  useDocumentTitle(name ?? (status === 'loading' ? null : slug));

  // The tag page of a tag no published article has (any more) is not found.
  if (status === 'ready' && articles.length === 0) return <NotFoundPage />;
  return (
    <section aria-labelledby="tag-heading">
      <header className="mb-10 border-b border-slate-200 pb-8 sm:mb-14 sm:pb-12 dark:border-slate-800">
        <p className="eyebrow">Articles tagged</p>
        {name !== undefined || status !== 'loading' ? (
          <h1
            id="tag-heading"
            ref={headingRef}
            tabIndex={-1}
            dir="auto"
            className="display-title mt-2 text-[2.25rem] sm:text-[3rem]"
          >
            {name ?? slug}
          </h1>
        ) : (
          <div
            aria-hidden="true"
            className="mt-2 h-[2.5rem] w-1/2 animate-pulse rounded bg-slate-200 sm:h-[3.3rem] dark:bg-slate-800"
          />
        )}
      </header>
      <ListFailures feed={feed} />
      {deletion.element}
      <ArticleList
        feed={feed}
        uid={auth.status === 'signedIn' ? auth.user.uid : null}
        onDelete={deletion.ask}
        cardHeading="h2"
      />
    </section>
  );
}
