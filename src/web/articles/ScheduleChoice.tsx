import { deskTexts } from '../../shared/editorTexts.ts';
import { fieldInputClass } from './ArticleFormField.tsx';

/** A time as a date-time input shows it: the person's own time zone, to the minute. */
export function localInputValue(iso: string): string {
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The input's local time as ISO 8601 UTC (what the API takes), or undefined when empty or unreadable. */
export function isoFromLocalInput(value: string): string | undefined {
  const time = new Date(value).getTime();
  return value === '' || Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/**
 * "Schedule": publish at a chosen time instead of now (DESIGN.md §9.6). The input reads and
 * shows the person's local time; the form sends it as UTC.
 */
export function ScheduleChoice({
  id,
  on,
  value,
  error,
  onToggle,
  onChange,
}: {
  id: string;
  on: boolean;
  value: string;
  error: string | undefined;
  onToggle: (on: boolean) => void;
  onChange: (value: string) => void;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className="space-y-2 font-sans text-sm">
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={on} onChange={(event) => onToggle(event.target.checked)} />
        {deskTexts.schedule}
      </label>
      {on && (
        <div>
          <label htmlFor={id} className="block font-medium">
            {deskTexts.publishAtLabel}
          </label>
          <input
            id={id}
            name={id}
            type="datetime-local"
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={[hintId, error ? errorId : ''].join(' ').trim()}
            className={`${fieldInputClass} max-w-xs`}
            onChange={(event) => onChange(event.target.value)}
          />
          <p id={hintId} className="mt-1 text-slate-600 dark:text-slate-400">
            {deskTexts.publishAtHint}: {Intl.DateTimeFormat().resolvedOptions().timeZone}
          </p>
          {error && (
            <p id={errorId} className="mt-1 text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
