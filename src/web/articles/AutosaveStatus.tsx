import { deskTexts } from '../../shared/editorTexts.ts';
import type { AutosaveState } from './useAutosave.ts';

const said: Record<AutosaveState, string> = {
  idle: '',
  saving: deskTexts.saving,
  saved: deskTexts.saved,
  failed: deskTexts.autosaveFailed,
};

/** The autosave's quiet "Saving…" / "Saved", read out politely; a failure in the error colour. */
export function AutosaveStatus({ state }: { state: AutosaveState }) {
  return (
    <p
      aria-live="polite"
      data-testid="autosave-status"
      className={`text-sm ${state === 'failed' ? 'text-red-700 dark:text-red-400' : 'text-slate-600 dark:text-slate-400'}`}
    >
      {said[state]}
    </p>
  );
}
