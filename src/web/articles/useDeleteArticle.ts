import { useCallback, useState } from 'react';
import { useAuth } from '../auth/useAuth.ts';
import type { Article } from './articleTypes.ts';
import { articlesApi } from './articlesApi.ts';

/**
 * Delete with confirmation: ask(article) opens the question, confirm() deletes, and
 * onDeleted(id) lets the list drop the card without a reload.
 */
export function useDeleteArticle(onDeleted: (id: string) => void) {
  const { getIdToken } = useAuth();
  const [asking, setAsking] = useState<Article | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<Article | null>(null);

  const remove = useCallback(
    async (article: Article) => {
      setBusy(true);
      setFailed(null);
      try {
        await articlesApi.delete(article.id, getIdToken);
        onDeleted(article.id);
      } catch (error) {
        // Already gone is what the reader wanted.
        if (error instanceof Error && 'status' in error && error.status === 404) onDeleted(article.id);
        else setFailed(article);
      } finally {
        setBusy(false);
        setAsking(null);
      }
    },
    [getIdToken, onDeleted],
  );

  return {
    asking,
    busy,
    failed,
    ask: (article: Article) => setAsking(article),
    cancel: () => setAsking(null),
    confirm: () => {
      if (asking) void remove(asking);
    },
    retry: () => {
      if (failed) void remove(failed);
    },
  };
}
