import { Link } from 'react-router';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';

/** The floating "Add an article" button signed-in readers see on the home page. */
export function AddArticleLink() {
  return (
    <Link to={paths.newArticle} className="add-article-button">
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5">
        <path fill="currentColor" d="M9 4h2v5h5v2h-5v5H9v-5H4V9h5z" />
      </svg>
      {messages.addAnArticleButton}
    </Link>
  );
}
