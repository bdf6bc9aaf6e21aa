import { useLayoutEffect, useRef } from 'react';
import { LimitNote, type LimitNoteState } from './LimitNote.tsx';

interface ArticleFormFieldProps {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  type?: 'text' | 'url';
  /** The title's look: large, bold type on a quiet underline, wrapping onto more lines as it grows. */
  large?: boolean;
  /** Characters left, once the text nears its limit; tied to the input. */
  note?: LimitNoteState | null;
}

export const fieldInputClass =
  'mt-1 block w-full rounded-md border bg-white px-3 py-2 text-base text-slate-900 shadow-sm dark:bg-slate-900 dark:text-slate-100 ' +
  'border-slate-300 dark:border-slate-700 aria-invalid:border-red-600 dark:aria-invalid:border-red-500';

const largeInputClass =
  'mt-1 block w-full resize-none overflow-hidden border-0 border-b-2 bg-transparent px-0 py-2 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-slate-100 ' +
  'border-slate-300 focus:border-blue-600 dark:border-slate-700 aria-invalid:border-red-600 dark:aria-invalid:border-red-500';

/** A labelled input with its error message (and note) tied to it for assistive technology. */
export function ArticleFormField({
  id,
  label,
  value,
  error,
  onChange,
  type = 'text',
  large,
  note,
}: ArticleFormFieldProps) {
  const errorId = `${id}-error`;
  const noteId = `${id}-note`;
  const describedBy = [error ? errorId : '', note ? noteId : ''].join(' ').trim();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {large ? (
        <LargeTextLine
          id={id}
          value={value}
          invalid={!!error}
          describedBy={describedBy}
          onChange={onChange}
          className={largeInputClass}
        />
      ) : (
        <input
          id={id}
          name={id}
          value={value}
          required
          type={type}
          dir={type === 'text' ? 'auto' : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={fieldInputClass}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      <FieldFeedback id={id} error={error} note={note} />
    </div>
  );
}

/** A field's error, when it has one, and its characters-left note, each at the id its input names. */
export function FieldFeedback({
  id,
  error,
  note,
}: {
  id: string;
  error: string | undefined;
  note?: LimitNoteState | null;
}) {
  return (
    <>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {note && <LimitNote id={`${id}-note`} note={note} />}
    </>
  );
}

/**
 * One line of text that wraps instead of scrolling sideways (a long title stays readable on a
 * phone): a text box as tall as its text, where Enter and pasted line breaks add no new line.
 */
function LargeTextLine(props: {
  id: string;
  value: string;
  invalid: boolean;
  describedBy: string;
  className: string;
  onChange: (value: string) => void;
}) {
  const box = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const fit = () => {
      element.style.height = 'auto';
      element.style.height = `${element.scrollHeight + 2}px`;
    };
    fit();
    // The same title takes more lines on a narrower box (a phone turned, a window resized, fonts
    // arriving): fit again whenever the width changes, or its last line is cut off.
    let width = element.clientWidth;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      fit();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [props.value]);
  return (
    <textarea
      ref={box}
      id={props.id}
      name={props.id}
      rows={1}
      required
      dir="auto"
      value={props.value}
      aria-invalid={props.invalid ? true : undefined}
      aria-describedby={props.describedBy || undefined}
      className={props.className}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          event.currentTarget.form?.requestSubmit();
        }
      }}
      onChange={(event) => props.onChange(event.target.value.replace(/[\r\n]+/g, ' '))}
    />
  );
}
