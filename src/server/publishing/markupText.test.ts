import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { escapeHtml, escapeXml, jsonForScript, summarise } from './markupText.ts';

describe('markup text', () => {
  it('escapes HTML text and attribute values', () => {
    expect(escapeHtml(`</title><script>"a" & 'b'`)).toBe('&lt;/title&gt;&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;');
  });

  it('drops what XML 1.0 cannot carry and keeps the rest, astral characters included', () => {
    const text = `a\u0000b\u0001c\u000bd\u001fe\ud800f\ufffeg\uffffh\t\n\r 😀 <&>`;
    const escaped = escapeXml(text);
    expect(escaped).toBe('abcdefgh\t\n\r 😀 &lt;&amp;&gt;');
    expect(XMLValidator.validate(`<x a="${escapeXml(text)}">${escaped}</x>`)).toBe(true);
  });

  it('writes JSON that cannot end its script element and still parses to the same value', () => {
    const value = { headline: '</script><!-- & \u2028 \u2029' };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('summarises at a word boundary with an ellipsis, counting characters as a person does', () => {
    expect(summarise('  Short\n\ntext.  ')).toBe('Short text.');
    const long = 'word '.repeat(100);
    const summary = summarise(long);
    expect([...summary].length).toBeLessThanOrEqual(160);
    expect(summary).toMatch(/^(word )+word…$/);
    // One endless word is cut, not dropped.
    expect(summarise('x'.repeat(400))).toBe(`${'x'.repeat(159)}…`);
    expect([...summarise('😀'.repeat(400))].length).toBe(160);
  });
});
