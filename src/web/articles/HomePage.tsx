import { lazy, Suspense, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { messages } from '../../shared/messages.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useServedPage } from '../served/servedPage.ts';
import { Masthead } from '../components/Masthead.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { ArticleList } from './ArticleList.tsx';
import { useFirstPageCall } from './articlePrefetch.ts';
import { EmptyList } from '../components/EmptyList.tsx';
import { ListFailures } from '../components/LoadFailure.tsx';
import { useArticleFeed } from './useArticleFeed.ts';
import { useListDeletion } from './useListDeletion.tsx';

// Only a visit that brings a notice (sign-up's, on its way here) loads it: the home page's
// JavaScript budget (docs/architecture.md, Budgets) has no room for code most visits never run.
const RouteNotice = lazy(() => import('../components/RouteNotice.tsx').then((m) => ({ default: m.RouteNotice })));
// Only signed-in people load it, and it reads their role (a reader is not offered to write): the
// role's code is not the home page's either.
const AddArticleLink = lazy(() => import('./AddArticleLink.tsx').then((m) => ({ default: m.AddArticleLink })));

/** `/`: the masthead, then every article, newest first (the newest featured), a page at a time. */
export function HomePage() {
  useDocumentTitle(null);
  // The server's word to an ownerless site's operator, in the page's data (DESIGN.md §9.6).
  const ownerHint = (useServedPage().screen as { ownerHint?: string } | null)?.ownerHint;
  const firstPage = useFirstPageCall();
  const { state: auth } = useAuth();
  const feed = useArticleFeed(firstPage);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { remove } = feed;
  // Loaded the first time someone deletes from the list: most visits never do, and the home page's
  // JavaScript budget (docs/architecture.md, Budgets) has no room for code nobody runs.
  const deletion = useListDeletion(remove, headingRef);
  const uid = auth.status === 'signedIn' ? auth.user.uid : null;
  const { status, articles } = feed;
  // Decided once: the notice forgets itself from the history entry as soon as it is shown.
  const handed = useLocation().state as { notice?: unknown } | null;
  const [bringsNotice] = useState(() => typeof handed?.notice === 'string');

  return (
    <>
      {bringsNotice && (
        <Suspense fallback={null}>
          <RouteNotice />
        </Suspense>
      )}
      <Masthead />
      {/* Before the list in the page's order, so a keyboard reaches it without passing every card;
          it floats in the corner, and the room below the list keeps it off the last cards. Only
          for a role that may write. */}
      {uid !== null && (
        <Suspense fallback={null}>
          <AddArticleLink />
        </Suspense>
      )}
      <section aria-labelledby="home-heading" className={uid !== null ? 'pb-24' : ''}>
        <h2 id="home-heading" ref={headingRef} tabIndex={-1} className="eyebrow mb-6">
          Latest articles
        </h2>

        <ListFailures feed={feed} />
        {deletion.element}

        {status === 'ready' && articles.length === 0 && (
          <>
            <EmptyList
              action={
                uid !== null && (
                  <Suspense fallback={null}>
                    <AddArticleLink className="pill-primary">Write the first article</AddArticleLink>
                  </Suspense>
                )
              }
            >
              {messages.noArticles}
            </EmptyList>
            {ownerHint && <p className="owner-hint">{ownerHint}</p>}
          </>
        )}

        <ArticleList feed={feed} uid={uid} onDelete={deletion.ask} featureFirst />
      </section>
    </>
  );
}
