import { lazy, Suspense, useCallback, useState, type ReactNode, type RefObject } from 'react';
import type { Article } from '../api/articleTypes.ts';

const ListDeletion = lazy(() => import('./ListDeletion.tsx').then((m) => ({ default: m.ListDeletion })));

/**
 * Delete from a list of cards (home, author and tag pages): `ask` is the cards' Delete, and
 * `element`, placed above the list, holds the question and any failure notice. Nothing of it is
 * loaded before the first Delete click (ListDeletion.tsx); from then on it stays mounted, so the
 * question closes and hands focus back as usual.
 */
export function useListDeletion(
  remove: (id: string) => void,
  heading: RefObject<HTMLElement | null>,
): { ask: (article: Article) => void; element: ReactNode } {
  const [request, setRequest] = useState<{ article: Article } | null>(null);
  const ask = useCallback((article: Article) => setRequest({ article }), []);
  const element = request && (
    <Suspense fallback={null}>
      <ListDeletion request={request} remove={remove} heading={heading} />
    </Suspense>
  );
  return { ask, element };
}
