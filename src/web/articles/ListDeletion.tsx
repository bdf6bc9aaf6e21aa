import { useEffect, type RefObject } from 'react';
import { messages } from '../../shared/messages.ts';
import type { Article } from '../api/articleTypes.ts';
import { ConfirmDeleteDialog } from '../components/ConfirmDeleteDialog.tsx';
import { LoadFailure } from '../components/LoadFailure.tsx';
import { useDeleteFromList } from './useDeleteArticle.ts';

export interface ListDeletionProps {
  /** The latest Delete click: a new object each time, so asking twice about one article asks twice. */
  request: { article: Article };
  /** Drops the card from the list once the article is gone. */
  remove: (id: string) => void;
  /** Where focus goes when the list is left empty. */
  heading: RefObject<HTMLElement | null>;
}

/**
 * Deleting from a list of cards: the question, the call, a failure notice with Retry, and the
 * focus after (useDeleteFromList). Its own chunk, loaded at the first Delete click
 * (useListDeletion.tsx): most visits to a list never delete, and the home page's JavaScript has
 * a budget.
 */
export function ListDeletion({ request, remove, heading }: ListDeletionProps) {
  const deletion = useDeleteFromList(remove, heading);
  const { ask } = deletion;
  useEffect(() => ask(request.article), [ask, request]);
  return (
    <>
      {deletion.failed !== null && (
        <div className="mb-6">
          <LoadFailure message={messages.articleDeleteFailed} onRetry={deletion.retry} />
        </div>
      )}
      <ConfirmDeleteDialog
        open={deletion.asking !== null}
        busy={deletion.busy}
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </>
  );
}
