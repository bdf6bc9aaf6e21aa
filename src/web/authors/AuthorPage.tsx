import { useRef } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { useArticleFeed } from '../articles/useArticleFeed.ts';
import { useAuthorFirstPageCall } from '../articles/articlePrefetch.ts';
import { ArticleList } from '../articles/ArticleList.tsx';
import { ConfirmDeleteDialog } from '../articles/ConfirmDeleteDialog.tsx';
import { EmptyList } from '../articles/EmptyList.tsx';
import { ListFailures } from '../articles/LoadFailure.tsx';
import { useDeleteFromList } from '../articles/useDeleteArticle.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { servedAuthorName } from '../ssr/servedAuthor.ts';
import { servedMeta, servedStatus } from './servedDocument.ts';

/** `/author/:uid`: one author's articles, newest first, a page at a time (docs/product.md, Screens). */
export function AuthorPage() {
  const { uid = '' } = useParams();
  const { pathname } = useLocation();
  // The server knows the accounts: it answered this page 404 when there is no such author.
  if (servedStatus(pathname) === 404) return <NotFoundPage />;
  return <AuthorArticles key={uid} uid={uid} pathname={pathname} />;
}

function AuthorArticles({ uid, pathname }: { uid: string; pathname: string }) {
  const { state: auth } = useAuth();
  const feed = useArticleFeed(useAuthorFirstPageCall(uid), uid);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { remove } = feed;
  const deletion = useDeleteFromList(remove, headingRef);
  const signedInUid = auth.status === 'signedIn' ? auth.user.uid : null;
  const isSelf = signedInUid === uid;
  const { status, articles } = feed;

  // The name travels with each article; an author with none yet is named by the page's head.
  const name =
    articles.find((article) => article.authorName)?.authorName ??
    servedAuthorName(uid) ??
    servedMeta(pathname, 'og:title') ??
    (isSelf && auth.status === 'signedIn' ? auth.user.displayName : null);
  const known = name !== null && name !== undefined && name !== '';
  useDocumentTitle(known ? name : status === 'loading' ? null : 'Author');

  return (
    <section aria-labelledby="author-heading">
      <header className="mb-10 border-b border-slate-200 pb-8 sm:mb-14 sm:pb-12 dark:border-slate-800">
        <p className="eyebrow">Articles by</p>
        {known || status !== 'loading' ? (
          <h1
            id="author-heading"
            ref={headingRef}
            tabIndex={-1}
            dir="auto"
            className="display-title mt-2 text-[2.25rem] sm:text-[3rem]"
          >
            {known ? name : 'An author'}
          </h1>
        ) : (
          <div
            aria-hidden="true"
            className="mt-2 h-[2.5rem] w-1/2 animate-pulse rounded bg-slate-200 sm:h-[3.3rem] dark:bg-slate-800"
          />
        )}
      </header>

      <ListFailures feed={feed} deletion={deletion} />

      {status === 'ready' && articles.length === 0 && (
        <EmptyList
          action={
            isSelf && (
              <Link to={paths.newArticle} className="pill-primary">
                Write your first article
              </Link>
            )
          }
        >
          {messages.noArticles}
        </EmptyList>
      )}

      <ArticleList feed={feed} uid={signedInUid} onDelete={deletion.ask} cardHeading="h2" />

      <ConfirmDeleteDialog
        open={deletion.asking !== null}
        busy={deletion.busy}
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </section>
  );
}
