import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ARTICLE_PAGE_MAX_LIMIT } from '../../shared/articlePaging.ts';
import { paths } from '../../shared/routes.ts';
import { AdminAlert, adminFailure } from '../components/AdminAlert.tsx';
import { smallButton } from '../components/adminStyles.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { linkClass } from '../components/formStyles.ts';
import type { Article } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';
import { formatArticleDate } from '../components/formatArticleDate.ts';
import { useAuth } from '../auth/useAuth.ts';
import { moderationTexts as texts } from './moderationTexts.ts';

/** Review: drafts submitted for review, oldest waiting longest at the bottom; open one or publish it. */
export function ReviewSection() {
  const { getIdToken } = useAuth();
  const [queue, setQueue] = useState<Article[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      const page = await articlesApi.list({ status: 'submitted', limit: ARTICLE_PAGE_MAX_LIMIT, token: getIdToken });
      setQueue(page.articles);
    } catch (caught) {
      setError(adminFailure(caught, texts.reviewLoadFailed));
    }
  }, [getIdToken]);
  useEffect(() => {
    void load();
  }, [load]);

  async function publish(article: Article) {
    setBusy(article.id);
    setError(null);
    setDone(null);
    try {
      // A save needs the whole article: the list leaves the body out.
      const full = await articlesApi.get(article.id, getIdToken);
      const { image, title, description, tags } = full;
      await articlesApi.update(article.id, { image, title, description, tags, status: 'published' }, getIdToken);
      setQueue((current) => current?.filter((entry) => entry.id !== article.id) ?? null);
      setDone(texts.published(article.title));
    } catch (caught) {
      setError(adminFailure(caught, texts.publishFailed));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="review-heading" className="flex flex-col gap-4">
      <h2 id="review-heading" className="sr-only">
        {texts.review}
      </h2>
      <div className="flex flex-col gap-2 empty:hidden">
        <AdminAlert message={error} />
        <FormAlert message={done} tone="success" />
      </div>
      {queue === null && !error && <p className="text-slate-600 dark:text-slate-400">{texts.loading}</p>}
      {queue?.length === 0 && <p className="text-slate-600 dark:text-slate-400">{texts.reviewEmpty}</p>}
      {queue && queue.length > 0 && (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {queue.map((article) => (
            <li key={article.id} data-testid="review-item" className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
              <div className="min-w-0 flex-1">
                <Link
                  to={paths.article(article.id)}
                  dir="auto"
                  className={`${linkClass} font-medium [overflow-wrap:anywhere]`}
                >
                  {article.title}
                </Link>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  <span dir="auto">{article.authorName ?? article.authorId}</span> ·{' '}
                  <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
                </p>
              </div>
              <button
                type="button"
                className={smallButton}
                disabled={busy !== null}
                aria-busy={busy === article.id}
                onClick={() => void publish(article)}
              >
                {texts.publish}
                <span className="sr-only"> {article.title}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
