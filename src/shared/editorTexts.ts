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

/** The writer's desk's own texts (not the spec's): excerpt, scheduling, autosave (DESIGN.md §9.6). */
export const deskTexts = {
  excerptLabel: 'Excerpt',
  excerptHint: 'Optional: shown on cards and in link previews instead of the start of the text.',
  schedule: 'Schedule',
  publishAtLabel: 'Publish at',
  publishAtHint: 'Your time zone',
  scheduleButton: 'Schedule',
  publishAtRequired: 'Choose when to publish it.',
  saving: 'Saving…',
  saved: 'Saved',
  autosaveFailed: 'Not saved to the server: your text is kept in this tab.',
} as const;
