import { useId, useState, type FormEvent } from 'react';
import { COMMENT_BODY_MAX_LENGTH, commentTexts as texts } from '../../shared/comments.ts';
import { inputClass } from '../components/formStyles.ts';
import { ApiError } from '../api/apiError.ts';
import { useCommentDraft } from './useCommentDraft.ts';

const countOf = (text: string) => [...text.trim()].length;

/** The server's sentence for a refusal (a field error first), else ours. */
export function failureText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    return error.fieldErrors[0]?.message ?? error.message;
  }
  return fallback;
}

interface CommentFormProps {
  /** Where the draft is kept (sessionStorage): one per box. */
  draftKey: string;
  label: string;
  submitLabel: string;
  initial?: string;
  autoFocus?: boolean;
  onSubmit: (body: string) => Promise<void>;
  onCancel?: () => void;
}

/**
 * A comment box: Markdown text of 1 to 5,000 characters (checked here with the server's rule
 * before it is sent). What was typed stays after a failed send, with the reason.
 */
export function CommentForm({
  draftKey,
  label,
  submitLabel,
  initial = '',
  autoFocus,
  onSubmit,
  onCancel,
}: CommentFormProps) {
  const fieldId = useId();
  const { text, setText, clear } = useCommentDraft(draftKey, initial);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const left = COMMENT_BODY_MAX_LENGTH - countOf(text);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (countOf(text) === 0) return setProblem('Write a comment first.');
    if (left < 0)
      return setProblem(`A comment has at most ${COMMENT_BODY_MAX_LENGTH.toLocaleString('en-US')} characters.`);
    setBusy(true);
    setProblem(null);
    try {
      await onSubmit(text.trim());
      clear();
    } catch (error) {
      setProblem(failureText(error, texts.sendFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-4 flex flex-col gap-2">
      <label htmlFor={fieldId} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={fieldId}
        dir="auto"
        rows={4}
        autoFocus={autoFocus}
        value={text}
        aria-invalid={problem !== null}
        aria-describedby={`${fieldId}-hint`}
        onChange={(event) => {
          setText(event.target.value);
          setProblem(null);
        }}
        className={`${inputClass} mt-0`}
      />
      <p id={`${fieldId}-hint`} className="text-sm text-slate-600 dark:text-slate-400">
        {left < 500 ? `${left.toLocaleString('en-US')} characters left. ` : ''}
        {texts.markdownHint}
      </p>
      {problem && (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {problem}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" disabled={busy} aria-busy={busy} className="pill-primary py-1.5 text-sm">
          {busy ? `${submitLabel}…` : submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel} disabled={busy} className="pill">
            {texts.cancel}
          </button>
        )}
      </div>
    </form>
  );
}
