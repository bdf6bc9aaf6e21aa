/** A text field's counter under its limit: the article editor's and the reason dialogs' (moderation, reports). */
export const charactersLeft = (left: number) =>
  left >= 0 ? `${left} characters left` : `${-left} characters over the limit`;
