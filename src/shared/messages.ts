/**
 * The texts the product fixes (docs/product.md, Texts) that the reading screens show, verbatim.
 * The account screens' fixed texts are in accountTexts.ts and the editor's in editorTexts.ts:
 * a text in this file travels in the home page's JavaScript whether the home page shows it or not.
 */
export const messages = {
  confirmDelete: 'Are you sure you want to delete this article?',
  // Article screens: their fixed labels and buttons (docs/product.md, Screens).
  addAnArticleButton: 'Add an article',
  cancel: 'Cancel',
  edit: 'Edit',
  delete: 'Delete',
  // Article screens: texts the product leaves open (the original showed failed data calls nowhere; we say so briefly).
  noArticles: 'No articles yet.',
  loadMore: 'Load more',
  retry: 'Retry',
  offline: 'This device seems to be offline.',
  articlesLoadFailed: 'The articles could not be loaded.',
  articleLoadFailed: 'The article could not be loaded.',
  articleDeleteFailed: 'The article could not be deleted. Please try again.',
  pageNotFound: 'Page not found',
  backToHome: 'Back to home',
} as const;

/** The top bar's labels (docs/product.md, Screens), verbatim. */
export const labels = {
  home: 'Home',
  profile: 'Profile',
  login: 'Login',
} as const;
