/** The article editor's fixed labels, buttons and messages (docs/product.md, Screens and Texts), verbatim. */
export const editorTexts = {
  mustBeLoggedIn: 'User must be logged in to add an article.',
  addArticleHeading: 'Add an Article',
  editArticleHeading: 'Edit Article',
  imageUrlLabel: 'Image URL',
  titleLabel: 'Title',
  descriptionLabel: 'Description',
  addArticleButton: 'Add Article',
  saveArticleButton: 'Save Article',
  articleSaveUnreachable: 'The server could not be reached, so the article is not saved yet. Your text is kept here.',
  articleSaveFailed: 'The article could not be saved. Please try again.',
  notYourArticle: 'You can only edit your own articles.',
} as const;
