import { Link } from 'react-router';
import { prefetchArticle } from './articlePrefetch.ts';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { ArticleByline } from './ArticleByline.tsx';
import { ArticleImage } from './ArticleImage.tsx';
import type { Article } from './articleTypes.ts';

interface ArticleCardProps {
  article: Article;
  /** Only the author sees Edit and Delete (the server checks again). */
  isAuthor: boolean;
  onDelete: (article: Article) => void;
}

const actionClass =
  'rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800';

export function ArticleCard({ article, isAuthor, onDelete }: ArticleCardProps) {
  const titleId = `article-${article.id}-title`;
  return (
    <article
      aria-labelledby={titleId}
      className="relative flex w-full flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm hover:shadow-md dark:border-slate-800 dark:bg-slate-900"
    >
      <ArticleImage src={article.image} />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 id={titleId} className="text-lg leading-snug font-semibold [overflow-wrap:anywhere]">
          {/* The link stretches over the whole card: image, title and description all lead to the article. */}
          <Link
            to={paths.article(article.id)}
            onClick={() => prefetchArticle(article.id)}
            className="after:absolute after:inset-0 hover:underline"
          >
            {article.title}
          </Link>
        </h2>
        <p className="line-clamp-3 text-slate-700 [overflow-wrap:anywhere] dark:text-slate-300">{article.excerpt}</p>
        <ArticleByline authorName={article.authorName} date={article.date} />
        {isAuthor && (
          <div className="relative z-10 mt-auto flex gap-2 pt-2">
            <Link to={paths.editArticle(article.id)} className={actionClass}>
              {messages.edit}
              <span className="sr-only"> {article.title}</span>
            </Link>
            <button
              type="button"
              onClick={() => onDelete(article)}
              className={`${actionClass} text-red-700 dark:text-red-400`}
            >
              {messages.delete}
              <span className="sr-only"> {article.title}</span>
            </button>
          </div>
        )}
      </div>
    </article>
  );
}
