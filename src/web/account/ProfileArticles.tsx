import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import type { Article } from '../api/articleTypes.ts';
import { ConfirmDeleteDialog } from '../components/ConfirmDeleteDialog.tsx';
import { formatArticleDate } from '../components/formatArticleDate.ts';
import { LoadFailure } from '../components/LoadFailure.tsx';
import { linkBesideItem, useDeleteArticle } from '../articles/useDeleteArticle.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useMayWrite } from '../auth/useRole.ts';
import { ownArticlesPage } from './ownArticles.ts';

type ListState =
  | { status: 'loading' | 'failed'; articles: Article[]; nextCursor: string | null }
  | { status: 'ready' | 'loadingMore' | 'moreFailed'; articles: Article[]; nextCursor: string | null };

const actionClass =
  'rounded-md border border-slate-300 px-3 py-1 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';

export const profileArticlesText = {
  heading: 'Your articles',
  none: 'You have not written any articles yet.',
} as const;

/** The profile's list of the signed-in person's own articles, newest first, with Edit and Delete. */
export function ProfileArticles() {
  const { state: auth } = useAuth();
  const mayWrite = useMayWrite();
  const uid = auth.status === 'signedIn' ? auth.user.uid : null;
  const [list, setList] = useState<ListState>({ status: 'loading', articles: [], nextCursor: null });
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const load = useCallback(
    async (cursor: string | null) => {
      if (uid === null) return;
      const more = cursor !== null;
      setList((current) => ({ ...current, status: more ? 'loadingMore' : 'loading' }));
      try {
        const page = await ownArticlesPage(uid, cursor);
        setList((current) => {
          const known = new Set(more ? current.articles.map((article) => article.id) : []);
          const fresh = page.articles.filter((article) => !known.has(article.id));
          return {
            status: 'ready',
            articles: more ? [...current.articles, ...fresh] : fresh,
            nextCursor: page.nextCursor,
          };
        });
      } catch {
        setList((current) => ({ ...current, status: more ? 'moreFailed' : 'failed' }));
      }
    },
    [uid],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  const onDeleted = useCallback((id: string) => {
    // Focus goes to the next article's link (or the one before, or the heading), never <body>.
    const row = listRef.current?.querySelector(`[data-article-id="${CSS.escape(id)}"]`) ?? null;
    const next = linkBesideItem(row) ?? headingRef.current;
    setList((current) => ({ ...current, articles: current.articles.filter((article) => article.id !== id) }));
    return next;
  }, []);
  const deletion = useDeleteArticle(onDeleted);

  const { status, articles, nextCursor } = list;
  return (
    <section
      aria-labelledby="profile-articles-heading"
      className="mt-10 border-t border-slate-200 pt-6 dark:border-slate-800"
    >
      <h2 id="profile-articles-heading" ref={headingRef} tabIndex={-1} className="text-xl font-semibold">
        {profileArticlesText.heading}
      </h2>
      {status === 'failed' && (
        <div className="mt-4">
          <LoadFailure message={messages.articlesLoadFailed} onRetry={() => void load(null)} />
        </div>
      )}
      {deletion.failed && (
        <div className="mt-4">
          <LoadFailure message={messages.articleDeleteFailed} onRetry={deletion.retry} />
        </div>
      )}
      {status === 'loading' && (
        <div aria-hidden="true" className="mt-4 space-y-3">
          <div className="h-10 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
          <div className="h-10 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
        </div>
      )}
      {status !== 'loading' && status !== 'failed' && articles.length === 0 && (
        <p className="mt-4 text-slate-600 dark:text-slate-400">
          {profileArticlesText.none}
          {mayWrite && (
            <>
              {' '}
              <Link to={paths.newArticle} className="text-blue-700 underline hover:no-underline dark:text-blue-400">
                {messages.addAnArticleButton}
              </Link>
            </>
          )}
        </p>
      )}
      <ul ref={listRef} className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
        {articles.map((article) => (
          <li
            key={article.id}
            data-article-id={article.id}
            className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3"
          >
            <div className="min-w-0 flex-1">
              <Link
                to={paths.article(article.id)}
                dir="auto"
                className="font-medium [overflow-wrap:anywhere] hover:underline"
              >
                {article.title}
              </Link>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
              </p>
            </div>
            <div className="flex gap-2">
              <Link to={paths.editArticle(article.id)} className={actionClass}>
                {messages.edit}
                <span className="sr-only"> {article.title}</span>
              </Link>
              <button
                type="button"
                onClick={() => deletion.ask(article)}
                className={`${actionClass} text-red-700 dark:text-red-400`}
              >
                {messages.delete}
                <span className="sr-only"> {article.title}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
      {status === 'moreFailed' && (
        <LoadFailure message={messages.articlesLoadFailed} onRetry={() => void load(nextCursor)} />
      )}
      {nextCursor !== null && (status === 'ready' || status === 'loadingMore') && (
        <button
          type="button"
          onClick={() => void load(nextCursor)}
          disabled={status === 'loadingMore'}
          aria-busy={status === 'loadingMore'}
          className={`${actionClass} mt-4`}
        >
          {messages.loadMore}
        </button>
      )}
      <ConfirmDeleteDialog
        open={deletion.asking !== null}
        busy={deletion.busy}
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </section>
  );
}
