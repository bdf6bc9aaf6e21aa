import { messages } from '../../shared/messages.ts';
import { ArticleCard } from './ArticleCard.tsx';
import { ArticleCardSkeleton } from './ArticleCardSkeleton.tsx';
import type { Article } from '../api/articleTypes.ts';
import { LoadFailure } from '../components/LoadFailure.tsx';
import { LoadMoreSentinel } from './LoadMoreSentinel.tsx';
import type { useArticleFeed } from './useArticleFeed.ts';

interface ArticleListProps {
  feed: ReturnType<typeof useArticleFeed>;
  /** The signed-in person's uid: their cards get Edit and Delete. */
  uid: string | null;
  onDelete: (article: Article) => void;
  /** The home page shows its newest article larger, across the grid. */
  featureFirst?: boolean;
  /** Heading level of each card's title. */
  cardHeading?: 'h2' | 'h3';
}

/**
 * A feed of article cards, a page at a time: skeletons while a page loads, Load more (and
 * loading on scroll) while there is more, a Retry when a page fails. Used by the home and
 * author pages.
 */
export function ArticleList({ feed, uid, onDelete, featureFirst = false, cardHeading = 'h3' }: ArticleListProps) {
  const { status, articles } = feed;
  const skeletons = status === 'loading' ? 6 : status === 'loadingMore' ? 3 : 0;
  return (
    <>
      <ul className="grid gap-x-8 gap-y-12 sm:grid-cols-2 lg:grid-cols-3" aria-busy={status === 'loading'}>
        {articles.map((article, index) => {
          const featured = featureFirst && index === 0;
          return (
            <li key={article.id} className={`flex ${featured ? 'sm:col-span-2 lg:col-span-3' : ''}`}>
              <ArticleCard
                article={article}
                isAuthor={article.authorId === uid}
                onDelete={onDelete}
                featured={featured}
                headingLevel={cardHeading}
              />
            </li>
          );
        })}
        {Array.from({ length: skeletons }, (_, index) => (
          <li
            key={`skeleton-${index}`}
            aria-hidden="true"
            className={featureFirst && status === 'loading' && index === 0 ? 'sm:col-span-2 lg:col-span-3' : ''}
          >
            <ArticleCardSkeleton featured={featureFirst && status === 'loading' && index === 0} />
          </li>
        ))}
      </ul>

      {status === 'moreFailed' && (
        <div className="mt-8">
          <LoadFailure message={messages.articlesLoadFailed} onRetry={feed.retry} />
        </div>
      )}

      {feed.nextCursor && (status === 'ready' || status === 'loadingMore') && (
        <div className="mt-12 flex justify-center">
          <LoadMoreSentinel key={articles.length} onVisible={feed.loadMore} />
          {/* A link to the next page, which the server renders (DESIGN.md §9.6): without script
              it leads there; with it, the page grows in place. */}
          <a
            href={`?cursor=${encodeURIComponent(feed.nextCursor)}`}
            onClick={(event) => {
              event.preventDefault();
              feed.loadMore();
            }}
            aria-busy={status === 'loadingMore'}
            className="pill px-6 py-2 text-base"
          >
            {messages.loadMore}
          </a>
        </div>
      )}
    </>
  );
}
