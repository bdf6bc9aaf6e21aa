import { keepTabInside } from './keepTabInside.ts';
import { useModalDialog } from './useModalDialog.ts';
import { useId } from 'react';
import { messages } from '../../shared/messages.ts';

interface ConfirmDeleteDialogProps {
  /** Open while set; the text names the article being deleted. */
  open: boolean;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * "Are you sure you want to delete this article?" as a modal <dialog>: the browser makes the
 * rest of the page inert (focus stays inside), Escape cancels, focus returns to the Delete button.
 */
export function ConfirmDeleteDialog({ open, busy, onConfirm, onCancel }: ConfirmDeleteDialogProps) {
  const dialogRef = useModalDialog(open);
  const headingId = useId();

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={headingId}
      onKeyDown={keepTabInside}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {messages.confirmDelete}
      </h2>
      <div className="mt-6 flex justify-end gap-3">
        <button
          type="button"
          autoFocus
          onClick={onCancel}
          disabled={busy}
          className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {messages.cancel}
        </button>
        <button
          type="button"
          onClick={onConfirm}
          disabled={busy}
          aria-busy={busy}
          className="rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-60"
        >
          {busy ? `${messages.delete}…` : messages.delete}
        </button>
      </div>
    </dialog>
  );
}
