import type { ArticleDetail, ArticlePage } from './articleSchema.ts';
import type { AuthorProfile } from './authorProfile.ts';
import type { CommentPage } from './comments.ts';
import type { SearchPage } from './searchSchema.ts';
import type { SiteIdentity } from './siteIdentity.ts';

/**
 * The reading screens the server renders into the HTML (decision 0301), with the data they were
 * rendered from. The same data goes into the page as a JSON data block
 * `<script type="application/json" id="served-screen">`, so the app's first render in the
 * browser is the server's, and React takes the markup over (hydrateRoot) without a change.
 */
export type ServedScreen =
  | {
      kind: 'home';
      page: ArticlePage;
      /** On an empty site with no owner: how its operator names one (DESIGN.md §9.6), shown under the empty list. */
      ownerHint?: string;
    }
  | {
      kind: 'article';
      article: ArticleDetail;
      /** The first page of comments as everyone sees it (DESIGN.md §9.2); absent when COMMENTS=off. */
      comments?: CommentPage;
    }
  | { kind: 'author'; uid: string; author: AuthorProfile; page: ArticlePage }
  | { kind: 'tag'; slug: string; page: ArticlePage }
  /** `q` as the page's address has it (the screen trims it); no results for no text or too long a text. */
  | { kind: 'search'; q: string; page: SearchPage };

/** The id of the page's JSON data block. */
export const SERVED_SCREEN_ELEMENT_ID = 'served-screen';

export interface ScreenRenderInput {
  /** The path the screen is shown at. */
  pathname: string;
  /** Its query string (`?q=…` on the search screen), or ''. */
  search?: string;
  site: SiteIdentity;
  screen: ServedScreen;
}

/** What the server-side bundle (src/web/ssr/renderScreen.tsx, built to dist/ssr) exports. */
export type RenderScreen = (input: ScreenRenderInput) => string;
