interface ArticleFormFieldProps {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  multiline?: boolean;
  type?: 'text' | 'url';
}

const inputClass =
  'mt-1 block w-full rounded-md border bg-white px-3 py-2 text-base text-slate-900 shadow-sm dark:bg-slate-900 dark:text-slate-100 ' +
  'border-slate-300 dark:border-slate-700 aria-invalid:border-red-600 dark:aria-invalid:border-red-500';

/** A labelled input (or textarea) with its error message tied to it for assistive technology. */
export function ArticleFormField({
  id,
  label,
  value,
  error,
  onChange,
  multiline,
  type = 'text',
}: ArticleFormFieldProps) {
  const errorId = `${id}-error`;
  const shared = {
    id,
    name: id,
    value,
    required: true,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
    className: inputClass,
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {multiline ? (
        <textarea {...shared} rows={10} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...shared} type={type} onChange={(event) => onChange(event.target.value)} />
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
