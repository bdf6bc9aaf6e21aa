import { Link, useLocation } from 'react-router';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { useRole } from '../auth/useRole.ts';
import type { ArticleDetail } from '../api/articleTypes.ts';
import { useAuth } from '../auth/useAuth.ts';
import { ArticleStatusBanner } from './ArticleStatusBanner.tsx';
import { mayModerate } from './mayModerate.ts';
import { ModerationActions } from './ModerationActions.tsx';

interface ArticleToolsProps {
  article: ArticleDetail;
  /** Opens the page's Delete question. */
  onDelete: () => void;
  /** The article changed on the server (hidden, restored): the page loads it again. */
  onChanged: () => void;
}

/**
 * What a signed-in person gets on an article page: the status banner (author and editors),
 * Edit and Delete (author and editors), Hide or Restore (editors), Report (anyone but the author).
 * Loaded only once someone is signed in: a reader from a link never downloads it (the article
 * page's JavaScript has a budget).
 */
export function ArticleTools({ article, onDelete, onChanged }: ArticleToolsProps) {
  const { state: auth } = useAuth();
  const role = useRole();
  const savedAs = (useLocation().state as { saved?: string } | null)?.saved;
  const isAuthor = auth.status === 'signedIn' && auth.user.uid === article.authorId;
  // Editors edit and delete any article (DESIGN.md §8.2); the server checks each call.
  const mayChange = isAuthor || mayModerate(role);

  return (
    <>
      <ArticleStatusBanner article={article} savedAs={savedAs} />
      <div className="mt-4 flex flex-wrap gap-2 font-sans empty:hidden">
        {mayChange && (
          <>
            <Link to={paths.editArticle(article.id)} className="pill">
              {messages.edit}
            </Link>
            <button type="button" onClick={onDelete} className="pill text-red-700 dark:text-red-400">
              {messages.delete}
            </button>
          </>
        )}
        {role && <ModerationActions article={article} role={role} isAuthor={isAuthor} onChanged={onChanged} />}
      </div>
    </>
  );
}
