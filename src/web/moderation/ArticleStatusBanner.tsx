import type { Article } from '../api/articleTypes.ts';
import { hiddenReasonLabel, savedNotes, statusBanners } from './statusTexts.ts';

/**
 * What the author (and editors) read above a not-published article: that it is a draft, waiting
 * for review, or hidden and why; and once, right after the editor saved it, that it was saved.
 */
export function ArticleStatusBanner({
  article,
  savedAs,
}: {
  article: Pick<Article, 'status' | 'moderation' | 'publishAt'>;
  savedAs?: string;
}) {
  const status = article.status;
  const saved = savedAs && savedAs in savedNotes ? savedNotes[savedAs as keyof typeof savedNotes] : null;
  if (status === 'published' && !saved) return null;
  const hidden = status === 'hidden';
  return (
    <div
      role="status"
      data-testid="article-status"
      className={`mt-5 rounded-md border px-4 py-3 font-sans text-sm ${
        hidden
          ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100'
          : 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100'
      }`}
    >
      {saved && <p className="font-semibold">{saved}</p>}
      {status !== 'published' && (
        <p>
          {statusBanners[status]}
          {article.publishAt && ` ${new Date(article.publishAt).toLocaleString()}`}
        </p>
      )}
      {hidden && article.moderation && (
        <p className="mt-1" dir="auto">
          <span className="font-semibold">{hiddenReasonLabel}</span> {article.moderation.reason}
        </p>
      )}
    </div>
  );
}
