import { StrictMode } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router';
import { screens } from '../../shared/routes.ts';
import type { RenderScreen } from '../../shared/servedScreen.ts';
import { ArticlePage } from '../articles/ArticlePage.tsx';
import { forgetStartedCalls, primeServedScreen } from '../articles/articlePrefetch.ts';
import { HomePage } from '../articles/HomePage.tsx';
import { AuthProvider } from '../auth/AuthProvider.tsx';
import type { AuthSession } from '../auth/authSession.ts';
import { AuthorPage } from '../authors/AuthorPage.tsx';
import { AppLayout } from '../components/AppLayout.tsx';
import { setSiteInfoOnServer } from '../components/siteInfo.ts';
import { setScreenOnServer } from './servedAuthor.ts';
import { markPageServed } from './servedScreen.ts';
import { CommentsView } from '../comments/CommentsView.tsx';
import { commentTexts } from '../../shared/comments.ts';
import { setCommentsHtmlOnServer } from '../comments/servedComments.ts';

/**
 * The server's half of the reading screens (decision 0301): built by Vite into dist/ssr and
 * loaded by the server (src/server/web/ssrScreens.ts). It renders the same layout and screens
 * as the app's router (router.tsx), at the sign-in state "unknown", from the data the page
 * carries for the browser, so hydrateRoot (main.tsx) finds exactly this markup.
 */

// The server knows nothing of the reader's session: the page is rendered as for anyone.
const noSession = {
  state: { status: 'unknown', user: null },
  endedByUser: false,
  onAuthStateChanged: () => () => {},
  getIdToken: async () => null,
} as unknown as AuthSession;

export const renderScreen: RenderScreen = ({ pathname, site, screen }) => {
  setSiteInfoOnServer(site);
  markPageServed();
  // Module state for one synchronous render: no other request runs in between.
  setScreenOnServer(screen);
  primeServedScreen(screen);
  // The comments as markup only (decision 0600): the article page's slot carries them as they are,
  // and the comments' own code, fetched later, takes over.
  setCommentsHtmlOnServer(
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
      : null,
  );
  try {
    return renderToString(
      <StrictMode>
        <AuthProvider session={noSession}>
          <StaticRouter location={pathname}>
            <Routes>
              <Route element={<AppLayout />}>
                <Route path={screens.home} element={<HomePage />} />
                <Route path={screens.article} element={<ArticlePage />} />
                <Route path={screens.author} element={<AuthorPage />} />
              </Route>
            </Routes>
          </StaticRouter>
        </AuthProvider>
      </StrictMode>,
    );
  } finally {
    setScreenOnServer(null);
    setCommentsHtmlOnServer(null);
    forgetStartedCalls();
  }
};
