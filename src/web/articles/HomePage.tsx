import { useCallback, useRef } from 'react';
import { messages } from '../../shared/messages.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { AddArticleLink } from './AddArticleLink.tsx';
import { ArticleCard } from './ArticleCard.tsx';
import { ArticleCardSkeleton } from './ArticleCardSkeleton.tsx';
import { useFirstPageCall } from './articlePrefetch.ts';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog.tsx';
import { LoadFailure } from './LoadFailure.tsx';
import { LoadMoreSentinel } from './LoadMoreSentinel.tsx';
import { useArticleFeed } from './useArticleFeed.ts';
import { linkBesideItem, useDeleteArticle } from './useDeleteArticle.ts';

/** `/`: every article, newest first, a page at a time. */
export function HomePage() {
  useDocumentTitle(null);
  const firstPage = useFirstPageCall();
  const { state: auth } = useAuth();
  const feed = useArticleFeed(firstPage);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { remove } = feed;
  const onDeleted = useCallback(
    (id: string) => {
      // The focused card is going: the next card takes the focus (else the heading), not <body>.
      const next = linkBesideItem(document.getElementById(`article-${id}-title`)) ?? headingRef.current;
      remove(id);
      return next;
    },
    [remove],
  );
  const deletion = useDeleteArticle(onDeleted);
  const uid = auth.status === 'signedIn' ? auth.user.uid : null;
  const { status, articles } = feed;

  return (
    <section aria-labelledby="home-heading" className="pb-20">
      <h1 id="home-heading" ref={headingRef} tabIndex={-1} className="mb-6 text-2xl font-bold">
        Articles
      </h1>

      <div className="mb-4 space-y-3 empty:hidden">
        {status === 'failed' && <LoadFailure message={messages.articlesLoadFailed} onRetry={feed.retry} />}
        {deletion.failed && <LoadFailure message={messages.articleDeleteFailed} onRetry={deletion.retry} />}
      </div>

      {status === 'ready' && articles.length === 0 && (
        <p className="rounded-lg border border-dashed border-slate-300 p-10 text-center text-slate-600 dark:border-slate-700 dark:text-slate-400">
          {messages.noArticles}
        </p>
      )}

      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-busy={status === 'loading'}>
        {articles.map((article) => (
          <li key={article.id} className="flex">
            <ArticleCard article={article} isAuthor={article.authorId === uid} onDelete={deletion.ask} />
          </li>
        ))}
        {(status === 'loading' || status === 'loadingMore') &&
          Array.from({ length: status === 'loading' ? 6 : 3 }, (_, index) => (
            <li key={`skeleton-${index}`} aria-hidden="true">
              <ArticleCardSkeleton />
            </li>
          ))}
      </ul>

      {status === 'moreFailed' && (
        <div className="mt-6">
          <LoadFailure message={messages.articlesLoadFailed} onRetry={feed.retry} />
        </div>
      )}

      {feed.hasMore && (status === 'ready' || status === 'loadingMore') && (
        <div className="mt-8 flex justify-center">
          <LoadMoreSentinel key={articles.length} onVisible={feed.loadMore} />
          <button
            type="button"
            onClick={feed.loadMore}
            disabled={status === 'loadingMore'}
            aria-busy={status === 'loadingMore'}
            className="rounded-md border border-slate-300 px-5 py-2 font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            {messages.loadMore}
          </button>
        </div>
      )}

      {auth.status === 'signedIn' && <AddArticleLink />}

      <ConfirmDeleteDialog
        open={deletion.asking !== null}
        busy={deletion.busy}
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </section>
  );
}
