import { formatArticleDate } from './formatArticleDate.ts';

/** "Author · date" in small secondary text (just the date when the author has no name). */
export function ArticleByline({ authorName, date }: { authorName: string | null; date: string }) {
  return (
    <p className="text-sm text-slate-600 dark:text-slate-400">
      {authorName && (
        <>
          <span>{authorName}</span>
          <span aria-hidden="true"> · </span>
        </>
      )}
      <time dateTime={date}>{formatArticleDate(date)}</time>
    </p>
  );
}
