import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { ARTICLE_COLUMN, ArticleBody } from './ArticleBody.tsx';
import { ArticleByline } from './ArticleByline.tsx';
import { ArticleCover } from './ArticleCover.tsx';
import { AuthorAvatar } from '../components/AuthorAvatar.tsx';
import { useArticleCall } from './articlePrefetch.ts';
import { articlesApi } from '../api/articlesApi.ts';
import type { ArticleDetail } from '../api/articleTypes.ts';
import { ConfirmDeleteDialog } from '../components/ConfirmDeleteDialog.tsx';
import { CommentsSlot } from '../comments/CommentsSlot.tsx';
import { LoadFailure } from '../components/LoadFailure.tsx';
import { MoreArticles } from './MoreArticles.tsx';
import { SubscribeForm } from '../components/SubscribeForm.tsx';
import { TagLinks } from './TagLinks.tsx';
import { readingMinutes } from './readingMinutes.ts';
import { settle, useSettled } from './settled.ts';
import { useDeleteArticle } from './useDeleteArticle.ts';

const column = ARTICLE_COLUMN;

// Edit, Delete, Hide, Restore, Report and the status banner: only signed-in people load them,
// never a reader arriving from a link (the article page's JavaScript has a budget).
const ArticleTools = lazy(() =>
  import('../moderation/ArticleTools.tsx').then((module) => ({ default: module.ArticleTools })),
);

/** `/article/:id`: one article. The call may have started before this screen's code arrived. */
export function ArticlePage() {
  const { id = '' } = useParams();
  const { state: auth, getIdToken } = useAuth();
  const firstCall = useArticleCall(id);
  // A retry (or a reload after Hide or Restore) replaces the first call until there is a new one (another id).
  const [retried, setRetried] = useState<{ source: typeof firstCall; call: typeof firstCall } | null>(null);
  const result = useSettled(retried?.source === firstCall ? retried.call : firstCall);
  const signedIn = auth.status === 'signedIn';
  const reload = useCallback(() => {
    // Signed in, the author and editors also get the article when it is not published.
    setRetried({ source: firstCall, call: settle(articlesApi.get(id, signedIn ? getIdToken : undefined)) });
  }, [firstCall, id, signedIn, getIdToken]);

  // The first call goes out without a token (it may have started before the session was known):
  // a 404 is asked again with it, since a draft or hidden article is its author's and editors'.
  const anonymousNotFound = result?.ok === false && result.error.status === 404 && retried?.source !== firstCall;
  useEffect(() => {
    if (anonymousNotFound && signedIn) reload();
  }, [anonymousNotFound, signedIn, reload]);

  const notFound =
    result?.ok === false && result.error.status === 404 && (!anonymousNotFound || auth.status === 'signedOut');
  useDocumentTitle(result?.ok ? result.value.title : notFound ? messages.pageNotFound : null);

  if (notFound) return <NotFoundPage />;
  if (result === undefined || (result.ok === false && result.error.status === 404)) return <ArticleSkeleton />;
  if (!result.ok) return <LoadFailure message={messages.articleLoadFailed} onRetry={reload} />;
  return <ArticleView key={result.value.id} article={result.value} onChanged={reload} />;
}

function ArticleView({ article, onChanged }: { article: ArticleDetail; onChanged: () => void }) {
  const { state: auth } = useAuth();
  const navigate = useNavigate();
  const onDeleted = useCallback(() => {
    void navigate(paths.home);
  }, [navigate]);
  const deletion = useDeleteArticle(onDeleted);

  return (
    <>
      <article>
        <header className={column}>
          <h1 dir="auto" className="display-title text-[2.25rem] sm:text-[3rem]">
            {article.title}
          </h1>
          <div className="mt-5 flex items-center gap-3">
            {article.authorName && (
              <AuthorAvatar
                authorId={article.authorId}
                authorName={article.authorName}
                photoUrl={article.authorPhotoUrl}
                size="md"
              />
            )}
            <ArticleByline
              authorId={article.authorId}
              authorName={article.authorName}
              authorSlug={article.authorSlug}
              authorPhotoUrl={article.authorPhotoUrl}
              date={article.date}
              readingMinutes={readingMinutes(article.descriptionHtml)}
              large
            />
          </div>
          <div className="mt-4 font-sans empty:hidden">
            <TagLinks tags={article.tags} />
          </div>
          {auth.status === 'signedIn' && (
            <Suspense fallback={null}>
              <ArticleTools article={article} onDelete={() => deletion.ask(article)} onChanged={onChanged} />
            </Suspense>
          )}
          {deletion.failed && (
            <div className="mt-4 font-sans">
              <LoadFailure message={messages.articleDeleteFailed} onRetry={deletion.retry} />
            </div>
          )}
        </header>
        <ArticleCover
          src={article.image}
          sizes="(min-width: 1024px) 976px, 100vw"
          className="mt-8 rounded-lg sm:mt-10"
        />
        <ArticleBody html={article.descriptionHtml} className={`${column} mt-8 sm:mt-10`} />
        <SubscribeForm place="subscribe-article" className={`${column} mt-10`} />
      </article>
      <CommentsSlot articleId={article.id} articleAuthorId={article.authorId} />
      <MoreArticles currentId={article.id} />
      <ConfirmDeleteDialog
        open={deletion.asking !== null}
        busy={deletion.busy}
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </>
  );
}

/** The article's shape while it loads: its looks are styles.css's `.article-skeleton` (no class strings in the page's script). */
function ArticleSkeleton() {
  return (
    <div aria-hidden="true" className="article-skeleton">
      <div className={column}>
        <div />
        <div />
        <div />
      </div>
      <div />
      <div className={column}>
        <div />
        <div />
        <div />
      </div>
    </div>
  );
}
