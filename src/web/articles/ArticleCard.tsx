import { Link } from 'react-router';
import { prefetchArticle } from './articlePrefetch.ts';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { ArticleByline } from './ArticleByline.tsx';
import { ArticleImage } from './ArticleImage.tsx';
import { TagLinks } from './TagLinks.tsx';
import type { Article } from '../api/articleTypes.ts';

interface ArticleCardProps {
  article: Article;
  /** Only the author sees Edit and Delete (the server checks again). */
  isAuthor: boolean;
  onDelete: (article: Article) => void;
  /** The newest article on the home page: picture beside the text on wide screens, larger title. */
  featured?: boolean;
  /** Heading level in the page's outline. */
  headingLevel?: 'h2' | 'h3';
}

// Card styles (.card, .card-title...) live in styles.css.

export function ArticleCard({ article, isAuthor, onDelete, featured = false, headingLevel = 'h2' }: ArticleCardProps) {
  const titleId = `article-${article.id}-title`;
  const Heading = headingLevel;
  return (
    <article aria-labelledby={titleId} className={featured ? 'card card-featured' : 'card'}>
      <ArticleImage
        src={article.image}
        loading={featured ? 'eager' : 'lazy'}
        sizes={featured ? '(min-width: 1024px) 560px, (min-width: 640px) 58vw, 100vw' : undefined}
        className="rounded-lg"
      />
      <div className={`flex flex-1 flex-col gap-2 ${featured ? 'pt-4 sm:pt-0' : 'pt-4'}`}>
        <Heading id={titleId} dir="auto" className="card-title">
          {/* The link stretches over the whole card: image, title and excerpt all lead to the article. */}
          <Link to={paths.article(article.id)} onClick={() => prefetchArticle(article.id)} className="card-link">
            {article.title}
          </Link>
        </Heading>
        <p dir="auto" className="card-excerpt">
          {article.excerpt}
        </p>
        <ArticleByline
          authorId={article.authorId}
          authorName={article.authorName}
          authorSlug={article.authorSlug}
          authorPhotoUrl={article.authorPhotoUrl}
          date={article.date}
          comments={article.commentCount}
        />
        <TagLinks tags={article.tags} />
        {isAuthor && (
          <div className="relative z-10 mt-auto flex gap-2 pt-2">
            <Link to={paths.editArticle(article.id)} className="pill">
              {messages.edit}
              <span className="sr-only"> {article.title}</span>
            </Link>
            <button type="button" onClick={() => onDelete(article)} className="pill text-red-700 dark:text-red-400">
              {messages.delete}
              <span className="sr-only"> {article.title}</span>
            </button>
          </div>
        )}
      </div>
    </article>
  );
}
