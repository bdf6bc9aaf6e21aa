import { describe, expect, it } from 'vitest';
import { EXCERPT_MAX_LENGTH } from './markdownExcerpt.ts';
import { renderMarkdown } from './renderMarkdown.ts';

const html = (source: string) => renderMarkdown(source).html;

/** Every href and src the HTML would make a browser follow. */
const urlsIn = (markup: string) => [...markup.matchAll(/\b(?:href|src)="([^"]*)"/g)].map((match) => match[1]);

describe('article Markdown', () => {
  it('formats what a writer writes: emphasis, headings, lists, quotes, code, strikethrough', () => {
    const out = html('**bold** *italic* ~~gone~~ `code`\n\n## Part\n\n- one\n- two\n\n> quoted\n\n```\nx < 1\n```');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<em>italic</em>');
    expect(out).toContain('<s>gone</s>');
    expect(out).toContain('<code>code</code>');
    expect(out).toContain('<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
    expect(out).toContain('<blockquote>\n<p>quoted</p>\n</blockquote>');
    expect(out).toContain('<pre><code>x &lt; 1\n</code></pre>');
  });

  it('puts body headings below the page title: never a second h1', () => {
    const out = html('# One\n\n## Two\n\n###### Six\n\nSetext\n===');
    expect(out).not.toMatch(/<h1/);
    expect(out).toContain('<h2>One</h2>');
    expect(out).toContain('<h3>Two</h3>');
    expect(out).toContain('<h6>Six</h6>');
    expect(out).toContain('<h2>Setext</h2>');
  });

  it('makes the highest body heading an h2 whatever its level, keeping the steps below it', () => {
    // `##` sections, as Ghost and WordPress write <h2> and as imports carry them over.
    const sections = html('Intro\n\n## What you need\n\n### The fish\n\n## Method\n\n##### A note');
    expect(sections).toContain('<h2>What you need</h2>');
    expect(sections).toContain('<h3>The fish</h3>');
    expect(sections).toContain('<h2>Method</h2>');
    expect(sections).toContain('<h5>A note</h5>');
    expect(sections).not.toMatch(/<h1/);
    expect(html('### Only a third level')).toBe('<h2>Only a third level</h2>\n');
    // A level written below six steps under the highest stops at h6.
    expect(html('# Top\n\n###### Six')).toContain('<h6>Six</h6>');
  });

  it('keeps plain text written before Markdown reading as it did: paragraphs and single line breaks', () => {
    expect(html('First line\nsecond line\n\nNew paragraph')).toBe(
      '<p>First line<br>\nsecond line</p>\n<p>New paragraph</p>\n',
    );
  });

  it('links web addresses, with rel="nofollow ugc noopener"', () => {
    expect(html('[Inkwell](https://example.com/a?b=1)')).toBe(
      '<p><a href="https://example.com/a?b=1" rel="nofollow ugc noopener">Inkwell</a></p>\n',
    );
    // Addresses with their scheme only: markdown-it's linkify leaves bare names like file.sh alone.
    expect(html('see https://example.com/page and file.sh')).toBe(
      '<p>see <a href="https://example.com/page" rel="nofollow ugc noopener">https://example.com/page</a> and file.sh</p>\n',
    );
    expect(html('<https://example.com>')).toContain('<a href="https://example.com" rel="nofollow ugc noopener">');
  });

  it('shows raw HTML as text', () => {
    const out = html('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\nHi <b onclick="x()">there</b>');
    expect(out).not.toMatch(/<script|<img|<b[ >]/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it.each([
    '[click](javascript:alert(1))',
    '[click](JavaScript:alert(1))',
    '[click](java&#x73;cript:alert(1))',
    '[click](  javascript:alert(1) )',
    '<javascript:alert(1)>',
    '[click][r]\n\n[r]: javascript:alert(1)',
    '[click](vbscript:msgbox(1))',
    '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '![x](data:image/png;base64,iVBORw0KGgo=)',
    '![x](javascript:alert(1))',
    '![x](file:///etc/passwd)',
    '[mail](mailto:someone@example.com) someone@example.com',
    '[proto](//evil.example/x) [up](../up) [here](page.html)',
  ])('lets no URL but http(s) and paths of this site through: %s', (source) => {
    const out = html(source);
    expect(urlsIn(out)).toEqual([]);
    expect(out).not.toMatch(/<a |<img /);
  });

  it("keeps links to paths of this site as written, as the site's own links (no nofollow)", () => {
    expect(html('The [Atom feed](/feed.xml), [bread](/tag/bread?x=1) and [part two](#two).')).toBe(
      '<p>The <a href="/feed.xml">Atom feed</a>, <a href="/tag/bread?x=1">bread</a> and <a href="#two">part two</a>.</p>\n',
    );
    expect(html('[feed][f]\n\n[f]: /feed.xml')).toBe('<p><a href="/feed.xml">feed</a></p>\n');
    // A backslash, which a browser would read as a slash (`/\\host` = `//host`), is percent-encoded: it stays a path here.
    expect(urlsIn(html('[back](/\\evil.example/x)'))).toEqual(['/%5Cevil.example/x']);
  });

  it('renders GFM tables, their cells kept apart in the excerpt and the search text', () => {
    const out = renderMarkdown('| Time | Step |\n| ---: | --- |\n| 5 min | Soak **the** stone |\n\nThen rest.');
    expect(out.html).toBe(
      '<table>\n<thead>\n<tr>\n<th class="align-right">Time</th>\n<th>Step</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td class="align-right">5 min</td>\n<td>Soak <strong>the</strong> stone</td>\n</tr>\n</tbody>\n</table>\n' +
        '<p>Then rest.</p>\n',
    );
    expect(out.excerpt).toBe('Time · Step · 5 min · Soak the stone · Then rest.');
    expect(out.text).toBe('Time · Step · 5 min · Soak the stone · Then rest.');
  });

  it('keeps block breaks in the search text, as in the excerpt, but never cuts it', () => {
    const { text } = renderMarkdown(`## What you need\n\n- A coarse stone\n- Water\n\n${'word '.repeat(100)}`);
    expect(text.startsWith('What you need · A coarse stone · Water · word word')).toBe(true);
    expect(text.length).toBeGreaterThan(500);
  });

  it('shows a picture alone in its paragraph with a title as a figure with that caption; elsewhere the title stays a title', () => {
    expect(html('![Boats](https://x.example/b.jpg "Dawn, from the <pier>")')).toBe(
      '<figure><img src="https://x.example/b.jpg" alt="Boats" loading="lazy" decoding="async" referrerpolicy="no-referrer">' +
        '<figcaption>Dawn, from the &lt;pier&gt;</figcaption></figure>\n',
    );
    expect(html('Text ![a](https://x.example/a.jpg "inline") more')).toContain('title="inline"');
    expect(html('![Boats](https://x.example/b.jpg)')).toBe(
      '<p><img src="https://x.example/b.jpg" alt="Boats" loading="lazy" decoding="async" referrerpolicy="no-referrer"></p>\n',
    );
  });

  it('renders images with http(s) addresses, lazily and without a referrer', () => {
    expect(html('See ![A cat](https://pictures.example/cat.jpg "Cat")')).toBe(
      '<p>See <img src="https://pictures.example/cat.jpg" alt="A cat" title="Cat" loading="lazy" decoding="async" referrerpolicy="no-referrer"></p>\n',
    );
  });

  it('escapes attribute breakouts in URLs and titles', () => {
    const out = html('[x](https://example.com/"onmouseover="alert(1) "a\\"b")');
    expect(out).not.toMatch(/"onmouseover=/);
    expect(out).not.toMatch(/ onmouseover/);
  });

  describe('excerpt', () => {
    it('is the rendered text without markup', () => {
      expect(
        renderMarkdown(
          '# Title\n\nSome **bold** and [a link](https://example.com).\n\n- one\n- two\n\n![pic](https://e.x/p.png)',
        ).excerpt,
      ).toBe('Title · Some bold and a link. one · two');
      expect(renderMarkdown('<b>tags</b> stay visible').excerpt).toBe('<b>tags</b> stay visible');
    });

    it('keeps the breaks between blocks: headings and list items do not run together (issue 26.5)', () => {
      const recipe = [
        '## Ingredients (for two)',
        '',
        '- 4 small dab, gutted, heads off',
        '- 60 g butter',
        '',
        'Heat the pan.',
        '',
        'Lay the fish in',
        'skin side down',
        '',
        '```',
        'salt  to taste',
        '```',
      ].join('\n');
      expect(renderMarkdown(recipe).excerpt).toBe(
        'Ingredients (for two) · 4 small dab, gutted, heads off · 60 g butter · Heat the pan. ' +
          'Lay the fish in skin side down · salt to taste',
      );
    });

    it('does not end on a dangling separator when cut', () => {
      const source = Array.from({ length: 60 }, (_, i) => `- item${String(i).padStart(2, '0')}`).join('\n');
      const { excerpt } = renderMarkdown(source);
      expect(excerpt).toMatch(/^item00 · item01 · .* · item\d\d…$/);
      expect([...excerpt].length).toBeLessThanOrEqual(EXCERPT_MAX_LENGTH);
    });

    it(`is at most ${EXCERPT_MAX_LENGTH} characters, cut at a word with an ellipsis`, () => {
      const source = `${'word '.repeat(100)}\n\n${'more '.repeat(100)}`;
      const { excerpt } = renderMarkdown(source);
      expect([...excerpt].length).toBeLessThanOrEqual(EXCERPT_MAX_LENGTH);
      expect(excerpt).toMatch(/^word word .* word…$|^word .* more…$/);
      expect(excerpt).not.toMatch(/\s…$/);
    });

    it('counts characters as a person does (emoji are one) and never splits one', () => {
      const { excerpt } = renderMarkdown('😀'.repeat(400));
      expect([...excerpt].length).toBe(EXCERPT_MAX_LENGTH);
      expect(excerpt.isWellFormed()).toBe(true);
    });
  });
});
