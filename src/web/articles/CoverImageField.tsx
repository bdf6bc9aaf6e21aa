import { useRef, useState } from 'react';
import { editorTexts } from '../../shared/editorTexts.ts';
import { fieldInputClass } from './ArticleFormField.tsx';
import { editorMessages } from './editorMessages.ts';
import { UPLOAD_TYPES } from '../api/imagesApi.ts';
import { useImageUpload } from './useImageUpload.ts';

interface CoverImageFieldProps {
  id: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

const isWebAddress = (value: string) => /^https?:\/\/\S+$/i.test(value.trim()) && URL.canParse(value.trim());

/**
 * The Image URL field, with an Upload button that fills it and a preview of the cover,
 * which says so plainly when the address does not load.
 */
export function CoverImageField({ id, value, error, onChange }: CoverImageFieldProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const { upload, busy, problem } = useImageUpload();
  // The address whose picture failed to load, so a new address starts without the message.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const src = value.trim();
  const showPreview = isWebAddress(src);
  const failed = showPreview && failedSrc === src;
  const errorId = `${id}-error`;
  const statusId = `${id}-status`;

  async function onFile(file: File | undefined) {
    if (!file) return;
    const uploaded = await upload(file);
    if (uploaded) onChange(uploaded.url);
  }

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {editorTexts.imageUrlLabel}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          name={id}
          type="url"
          required
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? errorId : '', failed || problem ? statusId : ''].join(' ').trim() || undefined}
          className={`${fieldInputClass} mt-0 min-w-0 flex-1`}
        />
        <button
          type="button"
          onClick={() => fileInput.current?.click()}
          disabled={busy}
          aria-busy={busy}
          className="shrink-0 rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {busy ? editorMessages.uploading : editorMessages.upload}
        </button>
        <input
          ref={fileInput}
          type="file"
          accept={UPLOAD_TYPES.join(',')}
          hidden
          tabIndex={-1}
          onChange={(event) => {
            void onFile(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <p id={statusId} role="status" className="mt-1 text-sm text-red-700 empty:hidden dark:text-red-400">
        {problem ?? (failed ? editorMessages.coverDidNotLoad : '')}
      </p>
      {showPreview && !failed && (
        <figure className="mt-3 w-full max-w-sm">
          <div className="aspect-video overflow-hidden rounded-md bg-slate-200 dark:bg-slate-800">
            <img
              key={src}
              src={src}
              alt={editorMessages.coverPreview}
              referrerPolicy="no-referrer"
              onError={() => setFailedSrc(src)}
              className="h-full w-full object-cover"
            />
          </div>
        </figure>
      )}
    </div>
  );
}
