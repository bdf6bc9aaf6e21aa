import { editorMessages } from './editorMessages.ts';

export interface LimitNoteState {
  text: string;
  over: boolean;
}

/** Characters as the server counts them: an emoji is one. */
const characterCount = (value: string) => [...value].length;

/** How many characters are left once a text nears its limit (from 80%); null before that. */
export function limitNote(value: string, limit: number): LimitNoteState | null {
  const count = characterCount(value);
  if (count < limit * 0.8) return null;
  return { text: editorMessages.charactersLeft(limit - count), over: count > limit };
}

/** The note under a field, red once the text is over its limit. */
export function LimitNote({ id, note }: { id: string; note: LimitNoteState }) {
  return (
    <p
      id={id}
      className={`mt-1 text-sm ${note.over ? 'font-medium text-red-700 dark:text-red-400' : 'text-slate-600 dark:text-slate-400'}`}
    >
      {note.text}
    </p>
  );
}
