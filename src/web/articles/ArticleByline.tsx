import { Link } from 'react-router';
import { paths } from '../../shared/routes.ts';
import { formatArticleDate } from './formatArticleDate.ts';

interface ArticleBylineProps {
  authorId: string;
  authorName: string | null;
  date: string;
  /** Minutes, on the article page; cards leave it out. */
  readingMinutes?: number;
  /** The article page's byline is a step larger than a card's. */
  large?: boolean;
}

/**
 * "Author · date · N min read" in small secondary text. The name leads to the author's page (it
 * sits above a card's stretched link, so it stays clickable there); without a name, just the date.
 */
export function ArticleByline({ authorId, authorName, date, readingMinutes, large = false }: ArticleBylineProps) {
  return (
    <p className={`font-sans text-slate-600 dark:text-slate-400 ${large ? 'text-sm' : 'text-[0.8125rem]'}`}>
      {authorName && (
        <>
          <Link
            to={paths.author(authorId)}
            dir="auto"
            className="relative z-10 font-medium text-slate-800 hover:underline dark:text-slate-200"
          >
            {authorName}
          </Link>
          <span aria-hidden="true"> · </span>
        </>
      )}
      <time dateTime={date}>{formatArticleDate(date)}</time>
      {readingMinutes !== undefined && (
        <>
          <span aria-hidden="true"> · </span>
          <span>{readingMinutes} min read</span>
        </>
      )}
    </p>
  );
}
