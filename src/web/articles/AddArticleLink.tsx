import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { useMayWrite } from '../auth/useRole.ts';

/**
 * A link to a new article's editor, for those whose role may write (a reader is not offered
 * what the server would refuse): the floating "Add an article" button, or `children` in `className`.
 */
export function AddArticleLink({
  className = 'add-article-button',
  children,
}: {
  className?: string;
  children?: ReactNode;
}) {
  if (!useMayWrite()) return null;
  return (
    <Link to={paths.newArticle} className={className}>
      {children ?? (
        <>
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5">
            <path fill="currentColor" d="M9 4h2v5h5v2h-5v5H9v-5H4V9h5z" />
          </svg>
          {messages.addAnArticleButton}
        </>
      )}
    </Link>
  );
}
