import { editorMessages } from './editorMessages.ts';

/**
 * Above the form when it opened on a draft kept from an earlier visit ("Leave, keep draft", a
 * reload, a detour to /login): says the text shown is the unsaved draft, not the saved
 * article, and offers to drop it (issue 26.8). Discard is the person's own explicit choice.
 */
export function RestoredDraftNotice({ onDiscard }: { onDiscard(): void }) {
  return (
    <div
      role="status"
      data-testid="restored-draft"
      className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p>{editorMessages.draftRestored}</p>
      <button
        type="button"
        onClick={onDiscard}
        className="rounded-md border border-amber-700 px-3 py-1.5 font-medium hover:bg-amber-100 dark:border-amber-400 dark:hover:bg-amber-900"
      >
        {editorMessages.discardDraft}
      </button>
    </div>
  );
}
