import {
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
} from 'react';
import { AltTextPrompt } from './AltTextPrompt.tsx';
import { LimitNote, type LimitNoteState } from './LimitNote.tsx';
import { MarkdownPreview } from './MarkdownPreview.tsx';
import { MarkdownToolbar, type ToolbarCommand } from './MarkdownToolbar.tsx';
import { editorMessages } from './editorMessages.ts';
import { UPLOAD_TYPES } from '../api/imagesApi.ts';
import {
  insertImage,
  setImageAlt,
  insertLink,
  toggleInline,
  toggleLinePrefix,
  type Selection,
  type TextEdit,
} from './markdownFormatting.ts';
import { useImageUpload } from './useImageUpload.ts';

interface DescriptionEditorProps {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  note: LimitNoteState | null;
  onChange: (value: string) => void;
}

// Tailwind's lg breakpoint: from here the preview sits beside the text instead of in a tab.
const WIDE = '(min-width: 1024px)';
const subscribeWide = (onChange: () => void) => {
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const useWideScreen = () =>
  useSyncExternalStore(
    subscribeWide,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );

const SHORTCUTS: Record<string, ToolbarCommand> = { b: 'bold', i: 'italic', k: 'link' };

const imageFiles = (files: FileList | undefined | null) =>
  [...(files ?? [])].filter((file) => (UPLOAD_TYPES as readonly string[]).includes(file.type));

/**
 * The article body: Markdown in a text box that grows with its text, a toolbar with the usual
 * shortcuts, a live preview (beside it on a wide screen, a tab on a phone), and images uploaded
 * when pasted, dropped or picked, their Markdown inserted where the caret was.
 */
export function DescriptionEditor({ id, label, value, error, note, onChange }: DescriptionEditorProps) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const pendingSelection = useRef<Selection | null>(null);
  // Where an image goes when its upload finishes; the text may have changed meanwhile.
  const latestValue = useRef(value);
  latestValue.current = value;
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const wide = useWideScreen();
  const { upload, busy, problem } = useImageUpload();
  // Images uploaded into the body that still need their alt text, oldest first.
  const [needAlt, setNeedAlt] = useState<string[]>([]);
  const errorId = `${id}-error`;
  const noteId = `${id}-note`;
  const hintId = `${id}-hint`;
  const statusId = `${id}-status`;

  // The box is as tall as its text: the page scrolls, not a small box inside it.
  useLayoutEffect(() => {
    const box = textarea.current;
    if (!box) return;
    box.style.height = 'auto';
    box.style.height = `${box.scrollHeight + 2}px`;
    if (pendingSelection.current) {
      box.setSelectionRange(pendingSelection.current.start, pendingSelection.current.end);
      pendingSelection.current = null;
    }
  }, [value, tab, wide]);

  /** Applies an edit as typing would, so the browser's undo takes it back. */
  function apply(edit: TextEdit) {
    const box = textarea.current;
    if (!box) return;
    // Taken before typing: the input event re-renders with the new text at once.
    const edited = latestValue.current.slice(0, edit.from) + edit.insert + latestValue.current.slice(edit.to);
    box.focus();
    box.setSelectionRange(edit.from, edit.to);
    const typed = edit.insert !== '' && document.execCommand('insertText', false, edit.insert);
    if (typed && box.value === edited) {
      box.setSelectionRange(edit.select.start, edit.select.end);
      return;
    }
    // No execCommand (or it did something else): set the value; the selection follows the render.
    pendingSelection.current = edit.select;
    onChange(edited);
  }

  function run(command: ToolbarCommand) {
    const box = textarea.current;
    if (!box) return;
    const selection = { start: box.selectionStart, end: box.selectionEnd };
    switch (command) {
      case 'bold':
      case 'italic':
      case 'code':
        return apply(toggleInline(value, selection, command));
      case 'heading':
      case 'list':
      case 'quote':
        return apply(toggleLinePrefix(value, selection, command));
      case 'link':
        return apply(insertLink(value, selection));
      case 'image':
        return fileInput.current?.click();
    }
  }

  async function uploadInto(files: File[]) {
    for (const file of files) {
      const uploaded = await upload(file);
      if (!uploaded) return;
      const box = textarea.current;
      const text = latestValue.current;
      const at = box && document.activeElement === box ? box.selectionEnd : text.length;
      const selection = { start: Math.min(at, text.length), end: Math.min(at, text.length) };
      // Inserted without alt text, then the writer is asked for it (a file name describes nothing).
      apply(insertImage(text, selection, '', uploaded.url));
      setNeedAlt((waiting) => [...waiting, uploaded.url]);
    }
  }

  function describeImage(url: string, alt: string | null, caption = '') {
    setNeedAlt((waiting) => waiting.filter((other) => other !== url));
    const edit = alt === null ? null : setImageAlt(latestValue.current, url, alt, caption);
    if (edit) apply(edit);
    else textarea.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const command = SHORTCUTS[event.key.toLowerCase()];
    if (!command) return;
    event.preventDefault();
    run(command);
  }

  function onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    const files = imageFiles(event.clipboardData.files);
    if (files.length === 0) return;
    event.preventDefault();
    void uploadInto(files);
  }

  function onDrop(event: DragEvent<HTMLTextAreaElement>) {
    const files = imageFiles(event.dataTransfer.files);
    if (files.length === 0) return;
    event.preventDefault();
    // The caret goes where the image was dropped, as it does for dropped text.
    textarea.current?.focus();
    void uploadInto(files);
  }

  const showWrite = wide || tab === 'write';
  const showPreview = wide || tab === 'preview';
  const describedBy = [error ? errorId : '', note ? noteId : '', hintId, problem || busy ? statusId : '']
    .filter(Boolean)
    .join(' ');
  const tabClass = (active: boolean) =>
    `rounded-md px-3 py-1.5 text-sm font-medium ${active ? 'bg-slate-200 dark:bg-slate-800' : 'text-slate-600 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-800'}`;

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="mt-1 flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 pb-2 dark:border-slate-800">
        <MarkdownToolbar controls={id} disabled={!showWrite} onCommand={run} />
        {!wide && (
          <div className="flex gap-1">
            <button
              type="button"
              aria-pressed={tab === 'write'}
              onClick={() => setTab('write')}
              className={tabClass(tab === 'write')}
            >
              {editorMessages.write}
            </button>
            <button
              type="button"
              aria-pressed={tab === 'preview'}
              onClick={() => setTab('preview')}
              className={tabClass(tab === 'preview')}
            >
              {editorMessages.preview}
            </button>
          </div>
        )}
      </div>
      <input
        ref={fileInput}
        type="file"
        accept={UPLOAD_TYPES.join(',')}
        multiple
        hidden
        tabIndex={-1}
        onChange={(event) => {
          void uploadInto(imageFiles(event.target.files));
          event.target.value = '';
        }}
      />
      <div className="mt-3 grid gap-6 lg:grid-cols-2">
        <div className={showWrite ? '' : 'hidden'}>
          <textarea
            ref={textarea}
            id={id}
            name={id}
            required
            dir="auto"
            value={value}
            rows={12}
            onChange={(event) => onChange(event.target.value)}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            onDrop={onDrop}
            // The browser's required check cannot point at a hidden box: show it first.
            onInvalid={() => setTab('write')}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className="block min-h-64 w-full resize-none overflow-hidden rounded-md border border-slate-300 bg-white px-3 py-2 text-lg leading-relaxed text-slate-900 shadow-sm aria-invalid:border-red-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:aria-invalid:border-red-500"
          />
        </div>
        {showPreview && (
          <section
            aria-label={editorMessages.preview}
            className="min-h-64 rounded-md border border-dashed border-slate-300 px-4 py-3 dark:border-slate-700"
          >
            <MarkdownPreview source={value} />
          </section>
        )}
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {note && <LimitNote id={noteId} note={note} />}
      <p
        id={statusId}
        role="status"
        className={`mt-1 text-sm empty:hidden ${problem ? 'text-red-700 dark:text-red-400' : ''}`}
      >
        {problem ?? (busy ? editorMessages.uploadingImage : '')}
      </p>
      {needAlt[0] !== undefined && (
        <AltTextPrompt
          key={needAlt[0]}
          onSave={(alt, caption) => describeImage(needAlt[0]!, alt, caption)}
          onSkip={() => describeImage(needAlt[0]!, null)}
        />
      )}
      <p id={hintId} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {editorMessages.markdownHint}
      </p>
    </div>
  );
}
