import { Link } from 'react-router';
import { paths } from '../../shared/routes.ts';
import { AuthorAvatar } from '../components/AuthorAvatar.tsx';
import { formatArticleDate } from '../components/formatArticleDate.ts';

interface ArticleBylineProps {
  authorId: string;
  authorName: string | null;
  /** The author page's slug; without one the uid URL (which redirects there). */
  authorSlug: string | null;
  authorPhotoUrl: string | null;
  date: string;
  /** Minutes, on the article page; cards leave it out. */
  readingMinutes?: number;
  /** The article page's byline is a step larger than a card's. */
  large?: boolean;
  /** Published comments (cards): shown when there are any. */
  comments?: number | undefined;
}

/**
 * "Author · date · N min read" in small secondary text. The name leads to the author's page (it
 * sits above a card's stretched link, so it stays clickable there); without a name, just the date.
 * A card's byline starts with the author's small picture; the article page shows a larger one beside it.
 */
export function ArticleByline(props: ArticleBylineProps) {
  const { authorId, authorName, date, readingMinutes, large = false } = props;
  return (
    <p
      className={`flex flex-wrap items-center font-sans text-slate-600 dark:text-slate-400 ${large ? 'text-sm' : 'text-[0.8125rem]'}`}
    >
      {authorName && (
        <>
          <Link
            to={paths.author(props.authorSlug ?? authorId)}
            dir="auto"
            className="relative z-10 inline-flex items-center gap-2 font-medium text-slate-800 hover:underline dark:text-slate-200"
          >
            {!large && (
              <AuthorAvatar authorId={authorId} authorName={authorName} photoUrl={props.authorPhotoUrl} size="sm" />
            )}
            {authorName}
          </Link>
          <span aria-hidden="true">&nbsp;·&nbsp;</span>
        </>
      )}
      <time dateTime={date}>{formatArticleDate(date)}</time>
      {props.comments && (
        <span>
          &nbsp;·&nbsp;{props.comments} comment{props.comments > 1 && 's'}
        </span>
      )}
      {readingMinutes !== undefined && (
        <>
          <span aria-hidden="true">&nbsp;·&nbsp;</span>
          <span>{readingMinutes} min read</span>
        </>
      )}
    </p>
  );
}
