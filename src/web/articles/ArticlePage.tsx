import { useState } from 'react';
import { useParams } from 'react-router';
import { messages } from '../../shared/messages.ts';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { ArticleBody } from './ArticleBody.tsx';
import { ArticleByline } from './ArticleByline.tsx';
import { ArticleImage } from './ArticleImage.tsx';
import { useArticleCall } from './articlePrefetch.ts';
import { articlesApi } from './articlesApi.ts';
import { LoadFailure } from './LoadFailure.tsx';
import { settle, useSettled } from './settled.ts';

/** `/article/:id`: one article. The call may have started before this screen's code arrived. */
export function ArticlePage() {
  const { id = '' } = useParams();
  const firstCall = useArticleCall(id);
  // A retry replaces the first call until there is a new one (another id).
  const [retried, setRetried] = useState<{ source: typeof firstCall; call: typeof firstCall } | null>(null);
  const result = useSettled(retried?.source === firstCall ? retried.call : firstCall);

  const notFound = result?.ok === false && result.error.status === 404;
  useDocumentTitle(result?.ok ? result.value.title : notFound ? messages.pageNotFound : null);

  if (notFound) return <NotFoundPage />;
  if (result === undefined) return <ArticleSkeleton />;
  if (!result.ok) {
    return (
      <LoadFailure
        message={messages.articleLoadFailed}
        onRetry={() => setRetried({ source: firstCall, call: settle(articlesApi.get(id)) })}
      />
    );
  }

  const article = result.value;
  return (
    <article className="mx-auto max-w-3xl">
      <ArticleImage
        src={article.image}
        loading="eager"
        sizes="(min-width: 800px) 768px, 100vw"
        className="rounded-lg"
      />
      <h1 className="mt-6 text-3xl font-bold [overflow-wrap:anywhere] sm:text-4xl">{article.title}</h1>
      <div className="mt-2">
        <ArticleByline authorName={article.authorName} date={article.date} />
      </div>
      <ArticleBody html={article.descriptionHtml} className="mt-6" />
    </article>
  );
}

function ArticleSkeleton() {
  return (
    <div aria-hidden="true" className="mx-auto max-w-3xl animate-pulse">
      <div className="aspect-video w-full rounded-lg bg-slate-200 dark:bg-slate-800" />
      <div className="mt-6 h-9 w-2/3 rounded bg-slate-200 dark:bg-slate-800" />
      <div className="mt-3 h-4 w-1/4 rounded bg-slate-200 dark:bg-slate-800" />
      <div className="mt-6 space-y-3">
        <div className="h-4 w-full rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-4 w-full rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-4 w-1/2 rounded bg-slate-200 dark:bg-slate-800" />
      </div>
    </div>
  );
}
