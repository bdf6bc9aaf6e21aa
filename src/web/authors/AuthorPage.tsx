import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { AuthorProfile } from '../../shared/authorProfile.ts';
import { messages } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { useArticleFeed } from '../articles/useArticleFeed.ts';
import { useAuthorFirstPageCall } from '../articles/articlePrefetch.ts';
import { ArticleList } from '../articles/ArticleList.tsx';
import type { ArticlesApiError } from '../api/articlesApiError.ts';
import { AuthorAvatar } from '../components/AuthorAvatar.tsx';
import { EmptyList } from '../components/EmptyList.tsx';
import { ListFailures, LoadFailure } from '../components/LoadFailure.tsx';
import { useListDeletion } from '../articles/useListDeletion.tsx';
import { useAuth } from '../auth/useAuth.ts';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { servedAuthor } from '../served/servedAuthor.ts';
import { useServedPage } from '../served/servedPage.ts';
import { authorsApi } from '../api/authorsApi.ts';
import { servedStatus } from '../served/servedDocument.ts';

/**
 * `/author/:slug`: one author's picture, bio and articles, newest first, a page at a time
 * (docs/product.md, Screens). A uid or an old slug is answered 301 by the server; reached
 * inside the app, the page replaces it with the current slug.
 */
export function AuthorPage() {
  const { slug = '' } = useParams();
  const { pathname } = useLocation();
  // The server knows the accounts: it answered this page 404 when there is no such author.
  if (servedStatus(pathname) === 404) return <NotFoundPage />;
  return <AuthorLookup key={slug} slug={slug} />;
}

type Lookup = { profile: AuthorProfile } | { error: ArticlesApiError } | null;

function AuthorLookup({ slug }: { slug: string }) {
  const navigate = useNavigate();
  const page = useServedPage();
  const [lookup, setLookup] = useState<Lookup>(() => {
    const served = servedAuthor(page, slug);
    return served ? { profile: served } : null;
  });
  useEffect(() => {
    if (lookup !== null) return;
    let live = true;
    authorsApi.get(slug).then(
      (profile) => live && setLookup({ profile }),
      (error: ArticlesApiError) => live && setLookup({ error }),
    );
    return () => {
      live = false;
    };
  }, [slug, lookup]);
  const profile = lookup && 'profile' in lookup ? lookup.profile : null;
  useEffect(() => {
    if (profile && profile.slug !== slug) void navigate(paths.author(profile.slug), { replace: true });
  }, [profile, slug, navigate]);
  useDocumentTitle(profile ? profile.name || 'An author' : null);

  if (lookup && 'error' in lookup) {
    if (lookup.error.status === 404) return <NotFoundPage />;
    return <LoadFailure message={messages.articlesLoadFailed} onRetry={() => setLookup(null)} />;
  }
  if (!profile) return <AuthorHeaderSkeleton />;
  return <AuthorArticles key={profile.uid} profile={profile} />;
}

function AuthorHeaderSkeleton() {
  return (
    <div
      aria-hidden="true"
      className="mb-10 flex items-center gap-5 border-b border-slate-200 pb-8 dark:border-slate-800"
    >
      <div className="h-20 w-20 animate-pulse rounded-full bg-slate-200 sm:h-24 sm:w-24 dark:bg-slate-800" />
      <div className="h-[2.5rem] w-1/2 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
    </div>
  );
}

function AuthorArticles({ profile }: { profile: AuthorProfile }) {
  const { state: auth } = useAuth();
  const { uid } = profile;
  const feed = useArticleFeed(useAuthorFirstPageCall(uid), uid);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { remove } = feed;
  const deletion = useListDeletion(remove, headingRef);
  const signedInUid = auth.status === 'signedIn' ? auth.user.uid : null;
  const isSelf = signedInUid === uid;
  const { status, articles } = feed;
  const count = profile.articleCount;

  return (
    <section aria-labelledby="author-heading">
      <header className="mb-10 flex flex-col gap-5 border-b border-slate-200 pb-8 sm:mb-14 sm:flex-row sm:items-center sm:gap-7 sm:pb-12 dark:border-slate-800">
        <AuthorAvatar authorId={uid} authorName={profile.name} photoUrl={profile.photoUrl} size="lg" />
        <div className="min-w-0">
          <p className="eyebrow">Articles by</p>
          <h1
            id="author-heading"
            ref={headingRef}
            tabIndex={-1}
            dir="auto"
            className="display-title mt-2 text-[2.25rem] break-words sm:text-[3rem]"
          >
            {profile.name || 'An author'}
          </h1>
          {profile.bio !== '' && (
            <p
              dir="auto"
              data-testid="author-bio"
              className="mt-3 max-w-prose font-serif text-lg whitespace-pre-line text-slate-700 dark:text-slate-300"
            >
              {profile.bio}
            </p>
          )}
          <p className="mt-3 font-sans text-sm text-slate-600 dark:text-slate-400">
            {count === 1 ? '1 article' : `${count} articles`}
          </p>
        </div>
      </header>

      <ListFailures feed={feed} />
      {deletion.element}

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
    </section>
  );
}
