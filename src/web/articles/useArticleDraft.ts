import { useCallback, useEffect, useState } from 'react';
import type { ArticleInput } from './articleTypes.ts';

const draftKey = (articleId: string | undefined) => `inkwell:article-draft:${articleId ?? 'new'}`;

function readDraft(articleId: string | undefined): ArticleInput | null {
  try {
    const raw = sessionStorage.getItem(draftKey(articleId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as Partial<ArticleInput>;
    return {
      image: typeof draft.image === 'string' ? draft.image : '',
      title: typeof draft.title === 'string' ? draft.title : '',
      description: typeof draft.description === 'string' ? draft.description : '',
    };
  } catch {
    return null; // Storage blocked or a mangled entry: start from the article instead.
  }
}

/**
 * The form's values, kept in this tab's sessionStorage as they are typed: a failed save, an
 * expired session or a detour to /login loses nothing. discard() forgets the draft.
 */
export function useArticleDraft(articleId: string | undefined, initial: ArticleInput) {
  const [values, setValues] = useState<ArticleInput>(() => readDraft(articleId) ?? initial);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (!touched) return;
    try {
      sessionStorage.setItem(draftKey(articleId), JSON.stringify(values));
    } catch {
      // Storage full or blocked: the values still live in the form.
    }
  }, [articleId, values, touched]);

  const update = useCallback((field: keyof ArticleInput, value: string) => {
    setTouched(true);
    setValues((current) => ({ ...current, [field]: value }));
  }, []);

  const discard = useCallback(() => {
    setTouched(false);
    try {
      sessionStorage.removeItem(draftKey(articleId));
    } catch {
      // Nothing to forget.
    }
  }, [articleId]);

  return { values, update, discard };
}
