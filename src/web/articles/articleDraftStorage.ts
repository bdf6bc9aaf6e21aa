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

/** Forgets every article draft of this tab (Log Out: the next person here must not see them). */
export function forgetArticleDrafts(): void {
  try {
    for (let index = sessionStorage.length - 1; index >= 0; index--) {
      const key = sessionStorage.key(index);
      if (key?.startsWith(DRAFT_PREFIX)) sessionStorage.removeItem(key);
    }
  } catch {
    // Storage blocked: there are no drafts either.
  }
}
