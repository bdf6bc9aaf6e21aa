/**
 * The editor toolbar's edits as pure functions of the text and its selection: each returns the
 * range to replace, the replacement and where the selection goes afterwards, so the textarea can
 * apply it as one undoable edit.
 */

export interface Selection {
  start: number;
  end: number;
}

export interface TextEdit {
  /** The range of the current text to replace. */
  from: number;
  to: number;
  insert: string;
  /** The selection after the edit, in the new text. */
  select: Selection;
}

export type InlineStyle = 'bold' | 'italic' | 'code';
export type LineStyle = 'heading' | 'list' | 'quote';

const INLINE_MARKERS: Record<InlineStyle, string> = { bold: '**', italic: '_', code: '`' };
const LINE_PREFIXES: Record<LineStyle, string> = { heading: '## ', list: '- ', quote: '> ' };
const PLACEHOLDERS: Record<InlineStyle, string> = { bold: 'bold text', italic: 'italic text', code: 'code' };

/**
 * Wraps the selection in the style's markers, or removes them when the selection is already
 * wrapped. With nothing selected, inserts a placeholder and selects it. A code selection over
 * several lines becomes a fenced block.
 */
export function toggleInline(text: string, selection: Selection, style: InlineStyle): TextEdit {
  const marker = INLINE_MARKERS[style];
  const { start, end } = selection;
  const selected = text.slice(start, end);
  if (style === 'code' && selected.includes('\n')) {
    const block = `\`\`\`\n${selected.replace(/\n$/, '')}\n\`\`\``;
    const before = start > 0 && text[start - 1] !== '\n' ? '\n' : '';
    return {
      from: start,
      to: end,
      insert: `${before}${block}\n`,
      select: at(start + before.length + 4, selected.length),
    };
  }
  const m = marker.length;
  if (text.slice(start - m, start) === marker && text.slice(end, end + m) === marker) {
    return { from: start - m, to: end + m, insert: selected, select: { start: start - m, end: end - m } };
  }
  // Markers hug the words: CommonMark ignores "** bold **", so spaces selected at either end stay outside.
  const lead = /^\s*/.exec(selected)![0].length;
  const trail = selected.trim() === '' ? 0 : /\s*$/.exec(selected)![0].length;
  const core = selected.slice(lead, selected.length - trail);
  const inner = core === '' ? PLACEHOLDERS[style] : core;
  return {
    from: start + lead,
    to: end - trail,
    insert: `${marker}${inner}${marker}`,
    select: at(start + lead + m, inner.length),
  };
}

/** Adds the style's prefix to every line the selection touches, or removes it when all have it. */
export function toggleLinePrefix(text: string, selection: Selection, style: LineStyle): TextEdit {
  const prefix = LINE_PREFIXES[style];
  const from = text.lastIndexOf('\n', selection.start - 1) + 1;
  const endOfLine = text.indexOf('\n', Math.max(selection.end - (selection.end > selection.start ? 1 : 0), from));
  const to = endOfLine === -1 ? text.length : endOfLine;
  const lines = text.slice(from, to).split('\n');
  const allHave = lines.every((line) => line.startsWith(prefix));
  const changed = lines.map((line) =>
    allHave ? line.slice(prefix.length) : `${prefix}${style === 'heading' ? line.replace(/^#+\s*/, '') : line}`,
  );
  const insert = changed.join('\n');
  const caretAtEnd = selection.start === selection.end;
  return {
    from,
    to,
    insert,
    select: caretAtEnd ? at(from + insert.length, 0) : { start: from, end: from + insert.length },
  };
}

/** Makes the selection the text of a link and selects the address to type over. */
export function insertLink(text: string, selection: Selection): TextEdit {
  const label = text.slice(selection.start, selection.end) || 'link text';
  const address = 'https://';
  const insert = `[${label}](${address})`;
  return {
    from: selection.start,
    to: selection.end,
    insert,
    select: at(selection.start + label.length + 3, address.length),
  };
}

/** Inserts an image on its own paragraph at the selection, the caret after it. */
export function insertImage(text: string, selection: Selection, alt: string, url: string): TextEdit {
  const before = selection.start === 0 || text.slice(0, selection.start).endsWith('\n\n') ? '' : '\n\n';
  const after = text.slice(selection.end).startsWith('\n\n') || selection.end === text.length ? '' : '\n\n';
  const insert = `${before}![${escapeAlt(alt)}](${url})${after}`;
  return { from: selection.start, to: selection.end, insert, select: at(selection.start + insert.length, 0) };
}

/**
 * Sets the alt text and the caption (its title: a picture alone in its paragraph shows it
 * under it) of the image at `url` (its first `![…](url)`), or null when the text no longer has
 * it (the writer deleted it meanwhile). An empty caption leaves the image without one.
 */
export function setImageAlt(text: string, url: string, alt: string, caption = ''): TextEdit | null {
  const image = `](${url})`;
  const end = text.indexOf(image);
  if (end === -1) return null;
  const from = text.lastIndexOf('![', end);
  if (from === -1) return null;
  const title = oneLine(caption);
  const destination = title === '' ? image : `](${url} "${title.replace(/["\\]/g, (char) => `\\${char}`)}")`;
  const insert = `![${escapeAlt(oneLine(alt))}${destination}`;
  return { from, to: end + image.length, insert, select: at(from + insert.length, 0) };
}

const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

function escapeAlt(alt: string): string {
  return alt.replace(/[[\]\\]/g, (char) => `\\${char}`);
}

function at(start: number, length: number): Selection {
  return { start, end: start + length };
}
