import { useId } from 'react';
import { keepTabInside } from '../components/keepTabInside.ts';
import { useModalDialog } from '../components/useModalDialog.ts';
import { editorMessages } from './editorMessages.ts';

interface Props {
  open: boolean;
  onStay(): void;
  onLeave(): void;
  onDiscard(): void;
}

/**
 * "Leave without saving?" as a modal <dialog>, while a way out of the editor is held back:
 * Keep editing (also Escape) stays with the text; Leave, keep draft goes and the draft waits in
 * this tab's storage for the next visit; Discard changes drops the draft and goes.
 */
export function LeaveEditorDialog({ open, onStay, onLeave, onDiscard }: Props) {
  const dialogRef = useModalDialog(open);
  const headingId = useId();
  const bodyId = useId();

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={headingId}
      aria-describedby={bodyId}
      onKeyDown={keepTabInside}
      onCancel={(event) => {
        event.preventDefault();
        onStay();
      }}
      className="m-auto w-[min(26rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {editorMessages.leaveTitle}
      </h2>
      <p id={bodyId} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        {editorMessages.leaveBody}
      </p>
      <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:justify-end sm:gap-3">
        <button
          type="button"
          autoFocus
          onClick={onStay}
          className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
        >
          {editorMessages.keepEditing}
        </button>
        <button
          type="button"
          onClick={onLeave}
          className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {editorMessages.leaveKeepDraft}
        </button>
        <button
          type="button"
          onClick={onDiscard}
          className="rounded-md border border-red-700 px-4 py-2 text-sm font-medium text-red-700 hover:bg-red-50 dark:border-red-400 dark:text-red-400 dark:hover:bg-red-950"
        >
          {editorMessages.discardChanges}
        </button>
      </div>
    </dialog>
  );
}
