import type { ReactNode } from 'react';
import { editorMessages } from './editorMessages.ts';

export type ToolbarCommand = 'bold' | 'italic' | 'heading' | 'link' | 'list' | 'quote' | 'code' | 'image';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const shortcut = (key: string) => (isMac ? `⌘${key}` : `Ctrl+${key}`);

const icon = (path: ReactNode) => (
  <svg
    aria-hidden="true"
    viewBox="0 0 24 24"
    className="h-5 w-5"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
  >
    {path}
  </svg>
);

const buttons: { command: ToolbarCommand; label: string; key?: string; glyph: ReactNode }[] = [
  { command: 'bold', label: editorMessages.bold, key: 'B', glyph: <span className="font-bold">B</span> },
  { command: 'italic', label: editorMessages.italic, key: 'I', glyph: <span className="font-serif italic">I</span> },
  { command: 'heading', label: editorMessages.heading, glyph: <span className="font-bold">H</span> },
  {
    command: 'link',
    label: editorMessages.link,
    key: 'K',
    glyph: icon(
      <>
        <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" />
        <path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
      </>,
    ),
  },
  {
    command: 'list',
    label: editorMessages.list,
    glyph: icon(<path d="M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01" />),
  },
  {
    command: 'quote',
    label: editorMessages.quote,
    glyph: icon(<path d="M7 7h4v4H8a1 1 0 0 0-1 1v3M13 7h4v4h-3a1 1 0 0 0-1 1v3" />),
  },
  { command: 'code', label: editorMessages.code, glyph: icon(<path d="m9 8-4 4 4 4M15 8l4 4-4 4" />) },
  {
    command: 'image',
    label: editorMessages.image,
    glyph: icon(
      <>
        <rect x="3" y="5" width="18" height="14" rx="2" />
        <path d="m3 16 5-5 4 4 3-3 6 6" />
      </>,
    ),
  },
];

/** The body's formatting buttons; keyboard shortcuts for bold, italic and link live on the text box. */
export function MarkdownToolbar({
  controls,
  disabled,
  onCommand,
}: {
  /** The id of the text box the buttons change. */
  controls: string;
  disabled?: boolean;
  onCommand: (command: ToolbarCommand) => void;
}) {
  return (
    <div
      role="toolbar"
      aria-label={editorMessages.toolbarLabel}
      aria-controls={controls}
      className="flex flex-wrap gap-1"
    >
      {buttons.map(({ command, label, key, glyph }) => (
        <button
          key={command}
          type="button"
          disabled={disabled}
          title={key ? `${label} (${shortcut(key)})` : label}
          aria-keyshortcuts={key ? (isMac ? `Meta+${key}` : `Control+${key}`) : undefined}
          // Keeps the text box's selection: the command applies to what was selected.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onCommand(command)}
          className="inline-flex h-9 min-w-9 items-center justify-center rounded-md px-2 text-slate-700 hover:bg-slate-100 disabled:opacity-50 dark:text-slate-300 dark:hover:bg-slate-800"
        >
          {glyph}
          <span className="sr-only">{label}</span>
        </button>
      ))}
    </div>
  );
}
