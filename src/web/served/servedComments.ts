// The article page's comments as the server rendered them (decision 0600): the server's renderer
// (src/web/ssr/renderScreen.tsx) renders the list to markup with CommentsView and hands it to the
// article page's slot in the served page (servedPage.ts), so the article page's own code never carries the list.

/** The id of the element the comments are rendered in. */
export const COMMENTS_ELEMENT_ID = 'comments';
