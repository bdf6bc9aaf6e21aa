import { StrictMode, type ReactElement } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router';
import { screens, type ServedScreenName } from '../../shared/routes.ts';
import type { RenderScreen } from '../../shared/servedScreen.ts';
import { ArticlePage } from '../articles/ArticlePage.tsx';
import { forgetStartedCalls, primeServedScreen } from '../articles/articlePrefetch.ts';
import { HomePage } from '../articles/HomePage.tsx';
import { AuthProvider } from '../auth/AuthProvider.tsx';
import type { AuthSession } from '../auth/authSession.ts';
import { AuthorPage } from '../authors/AuthorPage.tsx';
import TagPage from '../tags/TagPage.tsx';
import SearchPage from '../search/SearchPage.tsx';
import { AppLayout } from '../components/AppLayout.tsx';
import { setSiteInfoOnServer } from '../components/siteInfo.ts';
import { ServedPageContext } from '../served/servedPage.ts';
import { CommentsView } from '../comments/CommentsView.tsx';
import { commentTexts } from '../../shared/comments.ts';

/**
 * The server's half of the reading screens (decision 0301): built by Vite into dist/ssr and
 * loaded by the server (src/server/web/ssrScreens.ts). It renders the same layout and screens
 * as the app's router (router.tsx), at the sign-in state "unknown", from the data the page
 * carries for the browser, so hydrateRoot (main.tsx) finds exactly this markup.
 */

// The screens whose record says `serverRendered` (routes.ts): the type makes this list the table's.
const servedScreens: Record<ServedScreenName, ReactElement> = {
  home: <HomePage />,
  article: <ArticlePage />,
  author: <AuthorPage />,
  tag: <TagPage />,
  search: <SearchPage />,
};
const servedScreenNames = Object.keys(servedScreens) as ServedScreenName[];

// The server knows nothing of the reader's session: the page is rendered as for anyone.
const noSession = {
  state: { status: 'unknown', user: null },
  endedByUser: false,
  onAuthStateChanged: () => () => {},
  getIdToken: async () => null,
} as unknown as AuthSession;

export const renderScreen: RenderScreen = ({ pathname, search = '', site, screen }) => {
  // The same for every render of this server (its configuration).
  setSiteInfoOnServer(site);
  // The screen's first calls, answered with its data (the same cache the browser primes at boot).
  primeServedScreen(screen);
  // The comments as markup only (decision 0600): the article page's slot carries them as they are,
  // and the comments' own code, fetched later, takes over.
  const commentsHtml =
    screen.kind === 'article' && screen.comments
      ? renderToStaticMarkup(
          <StaticRouter location={pathname}>
            <CommentsView
              page={screen.comments}
              more={
                screen.comments.nextCursor && (
                  <p className="mt-8 text-slate-600 dark:text-slate-400">
                    {commentTexts.moreBelow(screen.comments.count)}
                  </p>
                )
              }
            />
          </StaticRouter>,
        )
      : null;
  try {
    return renderToString(
      <StrictMode>
        <ServedPageContext value={{ screen, commentsHtml }}>
          <AuthProvider session={noSession}>
            <StaticRouter location={pathname + search}>
              <Routes>
                <Route element={<AppLayout />}>
                  {servedScreenNames.map((name) => (
                    <Route key={name} path={screens[name]} element={servedScreens[name]} />
                  ))}
                </Route>
              </Routes>
            </StaticRouter>
          </AuthProvider>
        </ServedPageContext>
      </StrictMode>,
    );
  } finally {
    forgetStartedCalls();
  }
};
