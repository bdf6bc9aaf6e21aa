import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useAuth } from '../auth/useAuth.ts';
import type { Article } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';

/**
 * The link to focus once the list item holding `element` is gone: the next item's, else the one
 * before's (placeholders, aria-hidden, skipped); null when the list is left empty.
 */
export function linkBesideItem(element: Element | null): HTMLElement | null {
  const item = element?.closest('li');
  const beside = [item?.nextElementSibling, item?.previousElementSibling].find(
    (candidate) => candidate && !candidate.hasAttribute('aria-hidden'),
  );
  return beside?.querySelector<HTMLElement>('a[href]') ?? null;
}

/**
 * Delete with confirmation: ask(article) opens the question, confirm() deletes, and
 * onDeleted(id) lets the list drop the card without a reload. What onDeleted returns gets the
 * focus once the card is gone and the question has closed (closing it would otherwise hand focus
 * back to the removed Delete button, that is to <body>).
 */
export function useDeleteArticle(onDeleted: (id: string) => HTMLElement | null | void) {
  const { getIdToken } = useAuth();
  const [asking, setAsking] = useState<Article | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<Article | null>(null);
  const focusNext = useRef<HTMLElement | null>(null);

  // The caller's effects run after its dialog's, which close it: focus moves last.
  useEffect(() => {
    if (asking !== null || focusNext.current === null) return;
    focusNext.current.focus();
    focusNext.current = null;
  });

  const remove = useCallback(
    async (article: Article) => {
      setBusy(true);
      setFailed(null);
      try {
        await articlesApi.delete(article.id, getIdToken);
        focusNext.current = onDeleted(article.id) ?? null;
      } catch (error) {
        // Already gone is what the reader wanted.
        if (error instanceof Error && 'status' in error && error.status === 404)
          focusNext.current = onDeleted(article.id) ?? null;
        else setFailed(article);
      } finally {
        setBusy(false);
        setAsking(null);
      }
    },
    [getIdToken, onDeleted],
  );

  // Stable: a caller may ask from an effect (ListDeletion.tsx).
  const ask = useCallback((article: Article) => setAsking(article), []);

  return {
    asking,
    busy,
    failed,
    ask,
    cancel: () => setAsking(null),
    confirm: () => {
      if (asking) void remove(asking);
    },
    retry: () => {
      if (failed) void remove(failed);
    },
  };
}

/**
 * Delete from a list of cards: the card goes from the list without a reload, and the focus,
 * which was on it, moves to the next card (else the one before, else `heading`), never <body>.
 */
export function useDeleteFromList(remove: (id: string) => void, heading: RefObject<HTMLElement | null>) {
  const onDeleted = useCallback(
    (id: string) => {
      const next = linkBesideItem(document.getElementById(`article-${id}-title`)) ?? heading.current;
      remove(id);
      return next;
    },
    [remove, heading],
  );
  return useDeleteArticle(onDeleted);
}
