import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { paths } from '../../shared/routes.ts';
import { AdminAlert, adminFailure } from '../components/AdminAlert.tsx';
import { smallButton } from '../components/adminStyles.ts';
import { MoreButton } from '../components/MoreButton.tsx';
import { inputClass, linkClass } from '../components/formStyles.ts';
import type { Article, ArticleStatus } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';
import { formatArticleDate } from '../components/formatArticleDate.ts';
import { useAuth } from '../auth/useAuth.ts';
import { moderationTexts } from '../moderation/moderationTexts.ts';
import { postStatusLabels, postsTexts as texts } from './postsTexts.ts';

const PAGE_SIZE = 20;
// Beside its button, the input takes no top margin of its own (its row has it), so the two line up.
const searchInputClass = inputClass.replace('mt-1 ', '');
type StatusFilter = ArticleStatus | 'all';
const STATUSES = Object.keys(postStatusLabels) as ArticleStatus[];

/**
 * Posts (editors and owners): every article of every author and status, newest first, a page at
 * a time, filtered by status and searched by title (`GET /api/articles?status=all`, decision 0820).
 */
export function PostsSection() {
  const { getIdToken } = useAuth();
  const searchId = useId();
  const statusId = useId();
  const [query, setQuery] = useState<{ status: StatusFilter; q: string }>({ status: 'all', q: '' });
  const [typed, setTyped] = useState('');
  const [articles, setArticles] = useState<Article[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Only the newest request's answer is shown: a slow page of the previous filter must not land on the new one.
  const latest = useRef(0);

  const load = useCallback(
    async (cursor: string | null) => {
      const asked = ++latest.current;
      setBusy(true);
      setError(null);
      try {
        const page = await articlesApi.list({
          status: query.status,
          q: query.q || undefined,
          limit: PAGE_SIZE,
          cursor,
          token: getIdToken,
        });
        if (asked !== latest.current) return;
        setArticles((current) => (cursor === null ? page.articles : [...(current ?? []), ...page.articles]));
        setNextCursor(page.nextCursor);
      } catch (caught) {
        if (asked === latest.current) setError(adminFailure(caught, texts.loadFailed));
      } finally {
        if (asked === latest.current) setBusy(false);
      }
    },
    [getIdToken, query],
  );
  useEffect(() => {
    void load(null);
  }, [load]);

  function onSearch(event: FormEvent) {
    event.preventDefault();
    setQuery((current) => ({ ...current, q: typed.trim() }));
  }

  return (
    <section aria-labelledby="posts-heading" className="flex flex-col gap-4">
      <h2 id="posts-heading" className="sr-only">
        {texts.tab}
      </h2>
      <form
        role="search"
        aria-label={texts.searchFormLabel}
        onSubmit={onSearch}
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        <div className="flex grow flex-col">
          <label htmlFor={searchId} className="text-sm font-medium">
            {texts.searchLabel}
          </label>
          <div className="mt-1 flex gap-2">
            <input
              id={searchId}
              type="search"
              dir="auto"
              maxLength={100}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              className={`${searchInputClass} min-w-0`}
            />
            <button type="submit" className={smallButton}>
              {texts.search}
            </button>
          </div>
        </div>
        <div className="flex flex-col">
          <label htmlFor={statusId} className="text-sm font-medium">
            {texts.statusLabel}
          </label>
          <select
            id={statusId}
            value={query.status}
            onChange={(event) => setQuery((current) => ({ ...current, status: event.target.value as StatusFilter }))}
            className={`${inputClass} sm:w-56`}
          >
            <option value="all">{texts.anyStatus}</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {postStatusLabels[status]}
              </option>
            ))}
          </select>
        </div>
      </form>
      <AdminAlert message={error} />
      {articles === null && !error && <p className="text-slate-600 dark:text-slate-400">{moderationTexts.loading}</p>}
      {articles?.length === 0 && (
        <p className="text-slate-600 dark:text-slate-400">
          {query.q || query.status !== 'all' ? texts.noMatch : texts.empty}
        </p>
      )}
      {articles && articles.length > 0 && (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-busy={busy}>
          {articles.map((article) => (
            <PostItem key={article.id} article={article} />
          ))}
        </ul>
      )}
      {nextCursor !== null && (
        <MoreButton busy={busy} onMore={() => void load(nextCursor)}>
          {texts.more}
        </MoreButton>
      )}
    </section>
  );
}

const statusTone: Record<ArticleStatus, string> = {
  published: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200',
  draft: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
  submitted: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  hidden: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
  scheduled: 'bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200',
};

function PostItem({ article }: { article: Article }) {
  const author = article.authorName ?? moderationTexts.unnamed;
  return (
    <li
      data-testid="post"
      className="flex flex-col gap-1 py-3 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4"
    >
      <Link to={paths.article(article.id)} dir="auto" className={`${linkClass} font-medium [overflow-wrap:anywhere]`}>
        {article.title}
      </Link>
      <p className="flex shrink-0 flex-wrap items-baseline gap-x-2 text-sm text-slate-600 dark:text-slate-400">
        <span>
          {texts.byline}{' '}
          {article.authorSlug ? (
            <Link to={paths.author(article.authorSlug)} dir="auto" className={linkClass}>
              {author}
            </Link>
          ) : (
            <span dir="auto">{author}</span>
          )}
        </span>
        <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${statusTone[article.status]}`}>
          {postStatusLabels[article.status]}
        </span>
        {/* A scheduled article's time is when it will be published, in the reader's time zone. */}
        {article.publishAt ? (
          <time dateTime={article.publishAt}>{new Date(article.publishAt).toLocaleString()}</time>
        ) : (
          <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
        )}
      </p>
    </li>
  );
}
