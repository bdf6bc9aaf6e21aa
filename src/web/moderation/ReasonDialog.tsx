import { useEffect, useId, useState, type FormEvent } from 'react';
import { messages } from '../../shared/messages.ts';
import { inputClass } from '../components/formStyles.ts';
import { keepTabInside } from '../components/keepTabInside.ts';
import { useModalDialog } from '../components/useModalDialog.ts';
import { charactersLeft } from '../components/charactersLeft.ts';
import { moderationTexts } from './moderationTexts.ts';

interface ReasonDialogProps {
  open: boolean;
  title: string;
  body: string;
  label: string;
  confirmLabel: string;
  /** Most characters the reason may have (as a person counts them). */
  max: number;
  busy: boolean;
  /** Red confirm button (Hide); blue otherwise (Report). */
  danger?: boolean;
  /** The last attempt's failure, shown inside the dialog. */
  error: string | null;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

const countOf = (text: string) => [...text.trim()].length;

/**
 * A modal <dialog> that asks for a reason (Hide, Report): required, at most `max` characters,
 * checked here with the server's rule before it is sent. Cancel and Escape leave the page as it was.
 */
export function ReasonDialog(props: ReasonDialogProps) {
  const { open, title, body, label, confirmLabel, max, busy, danger = false, error, onConfirm, onCancel } = props;
  const dialogRef = useModalDialog(open);
  const headingId = useId();
  const fieldId = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // Each opening starts empty (a reason sent before is not offered again).
  useEffect(() => {
    if (!open) return;
    setReason('');
    setProblem(null);
  }, [open]);

  function cancel() {
    if (busy) return;
    setReason('');
    setProblem(null);
    onCancel();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const count = countOf(reason);
    if (count === 0) return setProblem(moderationTexts.reasonRequired);
    if (count > max) return setProblem(moderationTexts.reasonTooLong(max));
    setProblem(null);
    onConfirm(reason.trim());
  }

  const shown = problem ?? error;
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={headingId}
      onKeyDown={keepTabInside}
      onCancel={(event) => {
        event.preventDefault();
        cancel();
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <form onSubmit={submit} noValidate>
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
        </h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{body}</p>
        <label htmlFor={fieldId} className="mt-4 block text-sm font-medium">
          {label}
        </label>
        <textarea
          id={fieldId}
          dir="auto"
          rows={4}
          autoFocus
          value={reason}
          aria-invalid={problem !== null}
          aria-describedby={`${fieldId}-note`}
          onChange={(event) => {
            setReason(event.target.value);
            setProblem(null);
          }}
          className={inputClass}
        />
        <p id={`${fieldId}-note`} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {charactersLeft(max - countOf(reason))}
        </p>
        {shown && (
          <p
            role="alert"
            className="mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
          >
            {shown}
          </p>
        )}
        <div className="mt-6 flex justify-end gap-3">
          <button
            type="button"
            onClick={cancel}
            disabled={busy}
            className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            {messages.cancel}
          </button>
          <button
            type="submit"
            disabled={busy}
            aria-busy={busy}
            className={`rounded-md px-4 py-2 text-sm font-medium text-white disabled:opacity-60 ${danger ? 'bg-red-700 hover:bg-red-800' : 'bg-blue-700 hover:bg-blue-800'}`}
          >
            {busy ? `${confirmLabel}…` : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
