import { describe, expect, it } from 'vitest';
import { readingMinutes } from './readingMinutes.ts';

describe('readingMinutes', () => {
  it('is one minute for a short body', () => {
    expect(readingMinutes('<p>Boats come in at dawn.</p>')).toBe(1);
  });

  it('counts the words of the text, not the markup', () => {
    const paragraph = `<p>${'word '.repeat(225)}</p><pre><code>${'x '.repeat(225)}</code></pre>`;
    expect(readingMinutes(paragraph.repeat(3))).toBe(6);
    expect(readingMinutes(`<p><a href="https://example.com/a/very/long/path">${'word '.repeat(450)}</a></p>`)).toBe(2);
  });

  it('ignores punctuation standing alone', () => {
    expect(readingMinutes(`<p>${'— '.repeat(1000)}</p>`)).toBe(1);
  });
});
