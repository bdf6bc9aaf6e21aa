import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ARTICLE_PAGE_MAX_LIMIT } from '../../shared/articlePaging.ts';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import type { Article, ArticleStatus } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';
import { formatArticleDate } from '../components/formatArticleDate.ts';
import { LoadFailure } from '../components/LoadFailure.tsx';
import { useAuth } from '../auth/useAuth.ts';
import { moderationTexts as texts } from './moderationTexts.ts';
import { statusLabels } from './statusLabels.ts';
import { hiddenReasonLabel } from './statusTexts.ts';

type Unpublished = Exclude<ArticleStatus, 'published'>;
type Listed = Article & { status: Unpublished };
const UNPUBLISHED: Unpublished[] = ['draft', 'scheduled', 'submitted', 'hidden'];

/** The person's own articles that others cannot see, each status's newest 100, newest first. */
async function loadUnpublished(uid: string, token: () => Promise<string | null>): Promise<Listed[]> {
  const pages = await Promise.all(
    UNPUBLISHED.map((status) =>
      articlesApi
        .list({ author: uid, status, limit: ARTICLE_PAGE_MAX_LIMIT, token })
        .then((page) => page.articles.map((article) => ({ ...article, status }) as Listed)),
    ),
  );
  return pages.flat().sort((a, b) => b.date.localeCompare(a.date));
}

/** The profile's "Your drafts": drafts, articles waiting for review and hidden ones (with the reason). */
export function YourDrafts() {
  const { state: auth, getIdToken } = useAuth();
  const uid = auth.status === 'signedIn' ? auth.user.uid : null;
  const [list, setList] = useState<Listed[] | 'loading' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (uid === null) return;
    let current = true;
    setList('loading');
    loadUnpublished(uid, getIdToken).then(
      (articles) => current && setList(articles),
      () => current && setList('failed'),
    );
    return () => {
      current = false;
    };
  }, [uid, getIdToken, attempt]);

  return (
    <section
      aria-labelledby="profile-drafts-heading"
      data-testid="your-drafts"
      className="mt-10 border-t border-slate-200 pt-6 dark:border-slate-800"
    >
      <h2 id="profile-drafts-heading" className="text-xl font-semibold">
        {texts.yourDrafts}
      </h2>
      {list === 'loading' && (
        <div aria-hidden="true" className="mt-4 h-10 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      )}
      {list === 'failed' && (
        <div className="mt-4">
          <LoadFailure message={texts.draftsLoadFailed} onRetry={() => setAttempt((n) => n + 1)} />
        </div>
      )}
      {Array.isArray(list) && list.length === 0 && (
        <p className="mt-4 text-slate-600 dark:text-slate-400">{texts.noDrafts}</p>
      )}
      {Array.isArray(list) && list.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
          {list.map((article) => (
            <li key={article.id} data-testid="draft" className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
              <div className="min-w-0 flex-1">
                <Link
                  to={paths.article(article.id)}
                  dir="auto"
                  className="font-medium [overflow-wrap:anywhere] hover:underline"
                >
                  {article.title}
                </Link>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  <span
                    className={
                      article.status === 'hidden' ? 'font-medium text-red-700 dark:text-red-400' : 'font-medium'
                    }
                  >
                    {statusLabels[article.status]}
                  </span>
                  {' · '}
                  <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
                </p>
                {article.status === 'hidden' && article.moderation && (
                  <p dir="auto" className="text-sm text-slate-600 dark:text-slate-400">
                    {hiddenReasonLabel} {article.moderation.reason}
                  </p>
                )}
              </div>
              {article.status !== 'hidden' && (
                <Link
                  to={paths.editArticle(article.id)}
                  className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                >
                  {messages.edit}
                  <span className="sr-only"> {article.title}</span>
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
