import { useId, type InputHTMLAttributes } from 'react';
import { inputClass } from './formStyles.ts';

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> & { label: string; hint?: string };

/**
 * A visible label tied to its input (and an optional hint tied by aria-describedby). What people
 * type is laid out by its own first strong character (dir="auto"), so an Arabic or Hebrew name
 * reads right to left in a left-to-right page.
 */
export function FormField({ label, hint, ...input }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input id={id} dir="auto" className={inputClass} aria-describedby={hint ? hintId : undefined} {...input} />
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
    </div>
  );
}
