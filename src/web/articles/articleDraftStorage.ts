// Kept apart from the form's hook: the app layout forgets drafts on Log Out without loading the editor.
const DRAFT_PREFIX = 'inkwell:article-draft:';

export const draftKey = (articleId: string | undefined) => `${DRAFT_PREFIX}${articleId ?? 'new'}`;

export function forgetDraft(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Nothing to forget.
  }
}

// The article drafts' prefix and the comment boxes' (comments/useCommentDraft.ts), in one test:
// the home and article pages' JavaScript has a budget.
const ANY_DRAFT = /^inkwell:\w+-draft:/;

/** Forgets every draft of this tab, articles' and comments' (Log Out: the next person here must not see them). */
export function forgetArticleDrafts(): void {
  try {
    for (let index = sessionStorage.length - 1; index >= 0; index--) {
      const key = sessionStorage.key(index);
      if (key && ANY_DRAFT.test(key)) sessionStorage.removeItem(key);
    }
  } catch {
    // Storage blocked: there are no drafts either.
  }
}
