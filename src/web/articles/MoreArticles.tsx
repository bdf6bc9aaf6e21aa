import { useEffect, useState } from 'react';
import { ArticleCard } from './ArticleCard.tsx';
import type { Article } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';

const SHOWN = 3;

/**
 * A few of the newest other articles under the one just read, so a reader has somewhere to go
 * next. Fetched after the article is on screen; on failure the section simply stays away.
 */
export function MoreArticles({ currentId }: { currentId: string }) {
  const [articles, setArticles] = useState<Article[] | null>(null);
  useEffect(() => {
    let current = true;
    articlesApi.list({ limit: SHOWN + 1 }).then(
      (page) => {
        if (current) setArticles(page.articles.filter((article) => article.id !== currentId).slice(0, SHOWN));
      },
      () => {
        // Already logged by the API client; this section is a nicety, not the page.
      },
    );
    return () => {
      current = false;
    };
  }, [currentId]);

  if (!articles || articles.length === 0) return null;
  return (
    <section aria-labelledby="more-articles" className="mt-20 border-t border-slate-200 pt-10 dark:border-slate-800">
      <h2 id="more-articles" className="eyebrow mb-8">
        More articles
      </h2>
      <ul className="grid gap-x-8 gap-y-12 sm:grid-cols-2 lg:grid-cols-3">
        {articles.map((article) => (
          <li key={article.id} className="flex">
            <ArticleCard article={article} isAuthor={false} onDelete={() => {}} headingLevel="h3" />
          </li>
        ))}
      </ul>
    </section>
  );
}
