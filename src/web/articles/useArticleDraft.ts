import { useCallback, useEffect, useState } from 'react';
import { draftKey, forgetDraft } from './articleDraftStorage.ts';
import type { ArticleInput } from '../api/articleTypes.ts';

/** What is kept: whose draft it is and the article's values it started from, besides the typing. */
interface StoredDraft {
  uid: string;
  base: ArticleInput;
  values: ArticleInput;
}

function asInput(value: unknown): ArticleInput | null {
  if (value === null || typeof value !== 'object') return null;
  const { image, title, description, tags, excerpt } = value as Partial<Record<keyof ArticleInput, unknown>>;
  if (typeof image !== 'string' || typeof title !== 'string' || typeof description !== 'string') return null;
  // Drafts kept before tags existed have none.
  const tagList = Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
  // Drafts kept before excerpts existed have none.
  return { image, title, description, tags: tagList, excerpt: typeof excerpt === 'string' ? excerpt : '' };
}

const sameTags = (a: readonly string[] = [], b: readonly string[] = []) =>
  a.length === b.length && a.every((tag, index) => tag === b[index]);

const sameInput = (a: ArticleInput, b: ArticleInput) =>
  a.image === b.image &&
  a.title === b.title &&
  a.description === b.description &&
  (a.excerpt ?? '') === (b.excerpt ?? '') &&
  sameTags(a.tags, b.tags);

/**
 * The draft for this form, only when the same person started it from the article as it still is:
 * another person in this tab never sees it, and edits saved since (elsewhere) are never hidden.
 */
function readDraft(articleId: string | undefined, uid: string | null, base: ArticleInput): ArticleInput | null {
  if (uid === null) return null;
  let stored: Partial<StoredDraft>;
  try {
    const raw = sessionStorage.getItem(draftKey(articleId));
    if (!raw) return null;
    stored = JSON.parse(raw) as Partial<StoredDraft>;
  } catch {
    return null; // Storage blocked or a mangled entry: start from the article instead.
  }
  const storedBase = asInput(stored.base);
  const values = asInput(stored.values);
  if (stored.uid === uid && storedBase !== null && values !== null && sameInput(storedBase, base)) return values;
  forgetDraft(draftKey(articleId));
  return null;
}

/**
 * The form's values, kept in this tab's sessionStorage as they are typed: a failed save, an
 * expired session or a detour to /login loses nothing. discard() forgets the draft.
 * `initial` is the article's current values (empty for a new one); `uid` the signed-in person.
 */
export function useArticleDraft(articleId: string | undefined, initial: ArticleInput, uid: string | null) {
  const [base] = useState(initial);
  const [kept] = useState(() => readDraft(articleId, uid, base));
  const [values, setValues] = useState<ArticleInput>(kept ?? base);
  // The form opened on a draft kept from earlier (issue 26.8): the page says so and offers Discard.
  const [restored, setRestored] = useState(kept !== null && !sameInput(kept, base));
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (!touched || uid === null) return;
    try {
      const stored: StoredDraft = { uid, base, values };
      sessionStorage.setItem(draftKey(articleId), JSON.stringify(stored));
    } catch {
      // Storage full or blocked: the values still live in the form.
    }
  }, [articleId, uid, base, values, touched]);

  const update = useCallback(<F extends keyof ArticleInput>(field: F, value: ArticleInput[F]) => {
    setTouched(true);
    setValues((current) => ({ ...current, [field]: value }));
  }, []);

  const discard = useCallback(() => {
    setTouched(false);
    setRestored(false);
    forgetDraft(draftKey(articleId));
  }, [articleId]);

  /** Drops the draft and puts the article's own values (or an empty form) back in the form. */
  const discardRestored = useCallback(() => {
    discard();
    setValues(base);
  }, [discard, base]);

  /** Whether leaving now would lose typing: the values differ from the article as it is (or an empty form). */
  const changed = !sameInput(values, base);

  return { values, update, discard, discardRestored, changed, restored: restored && changed };
}
