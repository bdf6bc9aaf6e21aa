import { EXCERPT_MAX_LENGTH } from '../../shared/articleSchema.ts';
import { deskTexts } from '../../shared/editorTexts.ts';
import { FieldFeedback, fieldInputClass } from './ArticleFormField.tsx';
import { limitNote } from './LimitNote.tsx';

/**
 * The author's own excerpt (DESIGN.md §9.6): optional, so not required by the browser; empty,
 * the card and the page head use the start of the text.
 */
export function ExcerptField({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const note = limitNote(value.trim(), EXCERPT_MAX_LENGTH);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const noteId = `${id}-note`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {deskTexts.excerptLabel}
      </label>
      <p id={hintId} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {deskTexts.excerptHint}
      </p>
      <textarea
        id={id}
        name={id}
        rows={3}
        dir="auto"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, error ? errorId : '', note ? noteId : ''].join(' ').trim()}
        className={fieldInputClass}
        onChange={(event) => onChange(event.target.value)}
      />
      <FieldFeedback id={id} error={error} note={note} />
    </div>
  );
}
