import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../shared/markdown/renderMarkdown.ts';
import {
  insertImage,
  insertLink,
  setImageAlt,
  toggleInline,
  toggleLinePrefix,
  type TextEdit,
} from './markdownFormatting.ts';

/** The text after an edit, with the new selection marked by [ and ]. */
function apply(text: string, edit: TextEdit): string {
  const next = text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
  return `${next.slice(0, edit.select.start)}[${next.slice(edit.select.start, edit.select.end)}]${next.slice(edit.select.end)}`;
}

describe('toolbar edits', () => {
  it('wraps the selection in bold, italic or code, and unwraps it again', () => {
    expect(apply('say hello now', toggleInline('say hello now', { start: 4, end: 9 }, 'bold'))).toBe(
      'say **[hello]** now',
    );
    expect(apply('say **hello** now', toggleInline('say **hello** now', { start: 6, end: 11 }, 'bold'))).toBe(
      'say [hello] now',
    );
    expect(apply('say hello', toggleInline('say hello', { start: 4, end: 9 }, 'italic'))).toBe('say _[hello]_');
    expect(apply('x', toggleInline('x', { start: 1, end: 1 }, 'code'))).toBe('x`[code]`');
    // Spaces selected at the ends stay outside the markers, where CommonMark needs them.
    expect(apply('say hello now', toggleInline('say hello now', { start: 3, end: 10 }, 'bold'))).toBe(
      'say **[hello]** now',
    );
  });

  it('turns code over several lines into a fenced block', () => {
    const text = 'Intro\nlet a = 1;\nlet b = 2;';
    expect(apply(text, toggleInline(text, { start: 6, end: text.length }, 'code'))).toBe(
      'Intro\n```\n[let a = 1;\nlet b = 2;]\n```\n',
    );
  });

  it('prefixes every selected line for headings, lists and quotes, and removes the prefix again', () => {
    const text = 'one\ntwo\nthree';
    expect(apply(text, toggleLinePrefix(text, { start: 1, end: 6 }, 'list'))).toBe('[- one\n- two]\nthree');
    expect(apply('- one\n- two', toggleLinePrefix('- one\n- two', { start: 0, end: 11 }, 'list'))).toBe('[one\ntwo]');
    expect(apply('# Old\nbody', toggleLinePrefix('# Old\nbody', { start: 2, end: 2 }, 'heading'))).toBe(
      '## Old[]\nbody',
    );
    expect(apply('a\nsaid', toggleLinePrefix('a\nsaid', { start: 4, end: 4 }, 'quote'))).toBe('a\n> said[]');
  });

  it('makes a link of the selection with the address selected', () => {
    expect(apply('see docs', insertLink('see docs', { start: 4, end: 8 }))).toBe('see [docs]([https://])');
  });

  it('inserts an image on a paragraph of its own', () => {
    expect(apply('Before', insertImage('Before', { start: 6, end: 6 }, 'cat', 'https://x/i.jpg'))).toBe(
      'Before\n\n![cat](https://x/i.jpg)[]',
    );
    expect(apply('', insertImage('', { start: 0, end: 0 }, 'a [b]', 'https://x/i.jpg'))).toBe(
      '![a \\[b\\]](https://x/i.jpg)[]',
    );
    const text = 'Intro\n\n![](https://x/i.jpg)\n\nMore';
    expect(apply(text, setImageAlt(text, 'https://x/i.jpg', '  Boats [at]\ndawn ')!)).toBe(
      'Intro\n\n![Boats \\[at\\] dawn](https://x/i.jpg)[]\n\nMore',
    );
    expect(setImageAlt('no image here', 'https://x/i.jpg', 'alt')).toBeNull();
  });

  it('gives an image its caption as the title the renderer shows under it, quotes escaped', () => {
    const text = 'Intro\n\n![](https://x/i.jpg)\n\nMore';
    const edited = apply(text, setImageAlt(text, 'https://x/i.jpg', 'Boats', ' Dawn, "from" the\npier ')!);
    expect(edited).toBe('Intro\n\n![Boats](https://x/i.jpg "Dawn, \\"from\\" the pier")[]\n\nMore');
    expect(renderMarkdown(edited.replace('[]', '')).html).toContain('<figure><img src="https://x/i.jpg" alt="Boats"');
    expect(renderMarkdown(edited.replace('[]', '')).html).toContain(
      '<figcaption>Dawn, &quot;from&quot; the pier</figcaption></figure>',
    );
  });
});
