import { useId, useState, type KeyboardEvent } from 'react';
import { editorMessages } from './editorMessages.ts';

const fieldClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

/**
 * Asks for the alt text of an image just uploaded into the body (issue 26): a file name such as
 * `IMG_2041` tells a reader using a screen reader nothing; and for a caption, which readers see
 * under it (issue 39). Inside the article's form, so Enter saves the description rather than
 * the article.
 */
export function AltTextPrompt({
  onSave,
  onSkip,
}: {
  onSave: (alt: string, caption: string) => void;
  onSkip: () => void;
}) {
  const id = useId();
  const [alt, setAlt] = useState('');
  const [caption, setCaption] = useState('');
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (alt.trim() !== '') onSave(alt, caption);
  };
  return (
    <div className="mt-2 flex flex-col gap-2 rounded-md border border-slate-300 p-3 sm:flex-row sm:items-end dark:border-slate-700">
      <div className="flex-1">
        <label htmlFor={id} className="block text-sm font-medium">
          {editorMessages.altTextLabel}
        </label>
        <input
          id={id}
          dir="auto"
          autoFocus
          value={alt}
          maxLength={300}
          onChange={(event) => setAlt(event.target.value)}
          onKeyDown={onKeyDown}
          className={fieldClass}
        />
        <label htmlFor={`${id}-caption`} className="mt-2 block text-sm font-medium">
          {editorMessages.captionLabel}
        </label>
        <input
          id={`${id}-caption`}
          dir="auto"
          value={caption}
          maxLength={300}
          onChange={(event) => setCaption(event.target.value)}
          onKeyDown={onKeyDown}
          className={fieldClass}
        />
      </div>
      <div className="flex gap-2">
        <button
          type="button"
          className="pill-primary"
          disabled={alt.trim() === ''}
          onClick={() => onSave(alt, caption)}
        >
          {editorMessages.altTextSave}
        </button>
        <button type="button" className="pill" onClick={onSkip}>
          {editorMessages.altTextSkip}
        </button>
      </div>
    </div>
  );
}
